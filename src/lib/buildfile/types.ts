/**
 * The build-file syntax tree. Positions are 1-based (line and column, like editors and
 * `docker build --check` show them); a range's end is exclusive: `endColumn` is the column
 * just after the last character. Columns count UTF-16 code units (what JavaScript strings
 * and CodeMirror index by).
 */

export interface Range {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** A word of an instruction: its value as BuildKit's parser gives it, and where it was written. */
export interface Token {
  value: string;
  range: Range;
}

export interface Flag extends Token {
  /** `--name=value` → `name`; `--name` → `name`. */
  name: string;
  /** `--name=value` → `value`; `--name` (no `=`) → null. */
  flagValue: string | null;
}

/** An ENV or LABEL pair. `separator` is `=` for `key=value` and empty for the legacy `key value`. */
export interface KeyValue {
  key: Token;
  value: Token;
  separator: '=' | '';
}

export interface Heredoc {
  /** The delimiter word, quotes removed (`<<'EOF'` → `EOF`). */
  name: string;
  /** `3<<EOF` → 3; 0 when no descriptor is written. */
  fileDescriptor: number;
  /** False when any part of the delimiter was quoted: the body is not expanded. */
  expand: boolean;
  /** `<<-`: leading tabs are removed from the body (and the terminator may be tab-indented). */
  chomp: boolean;
  /** The body as written, every line with its line ending, tabs kept even when `chomp`. */
  content: string;
  /** The `<<EOF` word on the instruction line. */
  range: Range;
  /** The body lines and the terminator line. */
  bodyRange: Range;
}

export interface Instruction {
  /** The keyword as written (`run`, `RUN`, `Run`). */
  keyword: string;
  /** Lowercased keyword. */
  name: string;
  keywordRange: Range;
  flags: Flag[];
  /**
   * The arguments in BuildKit's order (what `Dump()` prints): ENV and LABEL give key, value,
   * separator triples; HEALTHCHECK gives the type then the command; JSON form one per element.
   */
  args: Token[];
  /** ENV and LABEL pairs (also in `args`). */
  pairs?: KeyValue[];
  /** The arguments were a JSON array (exec form). */
  json: boolean;
  heredocs: Heredoc[];
  /** ONBUILD's trigger, parsed as an instruction of its own. */
  trigger?: Instruction;
  /** From the keyword to the end of the last continuation line or heredoc terminator. */
  range: Range;
  /** The logical line: continuation lines joined, comment and empty lines inside removed. */
  original: string;
  /** Comment lines directly above the instruction (without `#`). */
  comments: string[];
  /** Empty lines inside the continuation (BuildKit warns; NoEmptyContinuation). */
  emptyContinuationLines: number[];
}

export interface Directive {
  /** Lowercased: `syntax`, `escape` or `check`. */
  name: string;
  value: string;
  range: Range;
  valueRange: Range;
}

export interface ParseError {
  message: string;
  range: Range;
}

export interface ParseWarning {
  /** A stable id: `NoEmptyContinuation`. */
  rule: string;
  message: string;
  range: Range;
}

export interface ParseResult {
  instructions: Instruction[];
  directives: Directive[];
  escapeToken: '\\' | '`';
  warnings: ParseWarning[];
  /** What BuildKit's parser refuses. Empty when the file parses. */
  errors: ParseError[];
}
