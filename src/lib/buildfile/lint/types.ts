/**
 * Diagnostics of a build file. Positions are those of the syntax tree: 1-based line and column,
 * the end exclusive (see ../types.ts).
 */

export type Severity = 'error' | 'warning' | 'info';

export interface TextEdit {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  text: string;
}

/** A mechanical fix: applying every edit (none overlap) resolves the diagnostic. */
export interface Fix {
  title: string;
  edits: TextEdit[];
}

export interface Diagnostic {
  /** BuildKit's rule name for its checks (so `# check=skip=<rule>` names them), else Berth's. */
  rule: string;
  severity: Severity;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** What to do about it, in a sentence. */
  hint?: string;
  /** BuildKit's documentation page for its checks. */
  url?: string;
  fix?: Fix;
}
