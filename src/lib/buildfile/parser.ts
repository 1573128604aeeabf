/**
 * A build-file parser faithful to BuildKit's `frontend/dockerfile/parser` (what `docker build`
 * runs before anything else), written from its source and tests: parser directives at the top,
 * line continuations with the escape character, comment and empty lines inside continuations,
 * JSON versus shell form, flags on every instruction, ENV/LABEL pairs, ONBUILD triggers and
 * heredocs. Every token keeps its source range. Nothing throws: what BuildKit refuses comes
 * back in `errors` (BuildKit stops at the first; this parser notes it and goes on, so an editor
 * still gets the rest of the file).
 */

import { goQuote } from './go-quote.ts';
import { heredocsOfLine } from './heredoc-words.ts';
import {
  continuation,
  isComment,
  LogicalLine,
  splitLines,
  type SourceLine
} from './logical-line.ts';
import { lastAtOrBelow } from './sorted.ts';
import type {
  Directive,
  Flag,
  Heredoc,
  Instruction,
  KeyValue,
  ParseError,
  ParseResult,
  ParseWarning,
  Range,
  Token
} from './types.ts';
import {
  extractFlags,
  isBlank,
  isSpace,
  parseJsonForm,
  parseWords,
  splitWhitespace,
  trimSpan,
  type Span
} from './words.ts';

const DIRECTIVE = /^([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$/d;
const KNOWN_DIRECTIVES = new Set(['syntax', 'escape', 'check']);
const HEREDOC_INSTRUCTIONS = new Set(['add', 'copy', 'run']);

export function parse(source: string): ParseResult {
  return new Parser(source).run();
}

class Parser {
  private readonly lines: SourceLine[];
  private readonly lineStarts: number[];
  private escape: '\\' | '`' = '\\';
  private readonly instructions: Instruction[] = [];
  private readonly directives: Directive[] = [];
  private readonly warnings: ParseWarning[] = [];
  private readonly errors: ParseError[] = [];
  private readonly source: string;

  constructor(source: string) {
    this.source = source;
    this.lines = splitLines(source);
    this.lineStarts = this.lines.map((l) => l.start);
  }

  run(): ParseResult {
    const { lines, source } = this;
    let directivesDone = false;
    const seen = new Set<string>();
    let comments: string[] = [];
    let i = 0;
    while (i < lines.length) {
      const line = lines[i]!;
      // A byte-order mark opens the first line only.
      const lineStart = i === 0 && source.startsWith('\uFEFF') ? line.start + 1 : line.start;
      const content = source.slice(lineStart, line.end);
      if (isComment(content)) {
        const comment = content.slice(1).trim();
        comments = comment === '' ? [] : [...comments, comment];
      }
      const [from] = trimSpan(source, lineStart, line.end);
      const token = source.slice(from, line.end);
      if (!directivesDone) {
        const found = this.directive(token, from, seen);
        if (found) comments = comments.slice(0, -1);
        else directivesDone = true;
      }
      i++;
      const body = isComment(token) ? '' : token;
      let { keep, continues } = continuation(body, this.escape);
      if (!continues && keep === 0) continue;

      const logical = new LogicalLine(source);
      logical.append(from, from + keep);
      const emptyLines: number[] = [];
      while (continues && i < lines.length) {
        const next = lines[i]!;
        i++;
        const raw = source.slice(next.start, next.end);
        if (isComment(raw)) continue;
        if (trimSpan(raw)[1] === 0) {
          emptyLines.push(i);
          continue;
        }
        ({ keep, continues } = continuation(raw, this.escape));
        logical.append(next.start, next.start + keep);
      }

      const errorsBefore = this.errors.length;
      const instruction = this.node(logical, 0, logical.text.length, comments);
      instruction.emptyContinuationLines = emptyLines;
      const linesBeforeHeredocs = i;
      i = this.heredocs(instruction, logical, i);
      // The range ends at the last character written: heredoc bodies count, trailing spaces do not.
      const afterHeredocs = i > linesBeforeHeredocs;
      const end = afterHeredocs ? this.range(from, lines[i - 1]!.end) : instruction.range;
      instruction.range = { ...instruction.range, endLine: end.endLine, endColumn: end.endColumn };
      for (let e = errorsBefore; e < this.errors.length; e++) {
        const error = this.errors[e]!;
        if (error.range.line === 0) error.range = instruction.range;
      }
      if (emptyLines.length > 0) {
        this.warnings.push({
          rule: 'NoEmptyContinuation',
          message: `Empty continuation line found in: ${logical.text}`,
          range: instruction.range
        });
      }
      this.instructions.push(instruction);
      comments = [];
    }
    if (this.instructions.length === 0) {
      const end = this.range(source.length, source.length);
      this.errors.push({ message: 'file with no instructions', range: end });
    }
    return {
      instructions: this.instructions,
      directives: this.directives,
      escapeToken: this.escape,
      warnings: this.warnings,
      errors: this.errors
    };
  }

  /** BuildKit's DirectiveParser.ParseLine: true while the line is a parser directive. */
  private directive(token: string, from: number, seen: Set<string>): boolean {
    if (!token.startsWith('#')) return false;
    let at = 1;
    while (at < token.length && isSpace(token[at])) at++;
    const match = DIRECTIVE.exec(token.slice(at));
    if (!match?.indices) return false;
    const name = (match[1] ?? '').toLowerCase();
    if (!KNOWN_DIRECTIVES.has(name)) return false;
    const value = match[2] ?? '';
    const [vs, ve] = match.indices[2] ?? [0, 0];
    const range = this.range(from, from + token.length);
    if (seen.has(name)) {
      this.errors.push({ message: `only one ${name} parser directive can be used`, range });
      return true;
    }
    seen.add(name);
    this.directives.push({
      name,
      value,
      range,
      valueRange: this.range(from + at + vs, from + at + ve)
    });
    if (name === 'escape') {
      if (value === '`' || value === '\\') this.escape = value;
      else {
        this.errors.push({
          message: `invalid escape token '${value}' does not match \` or \\`,
          range
        });
      }
    }
    return true;
  }

  /** BuildKit's newNodeFromLine on logical[from, to): keyword, flags, then per-instruction args. */
  private node(logical: LogicalLine, from: number, to: number, comments: string[]): Instruction {
    const text = logical.text;
    const [s, e] = trimSpan(text, from, to);
    let cmdEnd = s;
    while (cmdEnd < e && !isBlank(text[cmdEnd])) cmdEnd++;
    const keyword = text.slice(s, cmdEnd);
    let flags: Span[] = [];
    let argsStart = e;
    if (cmdEnd < e) {
      let restStart = cmdEnd;
      while (restStart < e && isBlank(text[restStart])) restStart++;
      const extracted = extractFlags(text.slice(restStart, e), restStart);
      flags = extracted.flags;
      argsStart = extracted.restAt;
    }
    const [as, ae] = trimSpan(text, argsStart, e);
    const rest = text.slice(as, ae);
    const name = keyword.toLowerCase();
    const span = (sp: Span): Token => ({
      value: sp.value,
      range: this.logicalRange(logical, sp.start, sp.end)
    });
    const instruction: Instruction = {
      keyword,
      name,
      keywordRange: this.logicalRange(logical, s, cmdEnd),
      flags: flags.map((f): Flag => {
        const body = f.value.replace(/^--/, '');
        const eq = body.indexOf('=');
        return {
          ...span(f),
          name: eq < 0 ? body : body.slice(0, eq),
          flagValue: eq < 0 ? null : body.slice(eq + 1)
        };
      }),
      args: [],
      json: false,
      heredocs: [],
      range: this.logicalRange(logical, s, e),
      original: text.slice(from, to),
      comments,
      emptyContinuationLines: []
    };
    const fail = (message: string) => {
      this.errors.push({ message, range: { line: 0, column: 0, endLine: 0, endColumn: 0 } });
    };
    const restSpan: Span = { value: rest, start: as, end: ae };

    const maybeJson = (toList: boolean) => {
      const form = parseJsonForm(rest, as);
      if (form.kind === 'json') {
        instruction.json = true;
        instruction.args = form.items.map(span);
      } else if (form.kind === 'not-strings') {
        fail('when using JSON array syntax, arrays must be comprised of strings only');
      } else if (rest !== '') {
        instruction.args = toList ? splitWhitespace(rest, as).map(span) : [span(restSpan)];
      }
    };

    switch (name) {
      case 'add':
      case 'copy':
      case 'volume':
        maybeJson(true);
        break;
      case 'cmd':
      case 'entrypoint':
      case 'run':
      case 'shell':
        maybeJson(false);
        break;
      case 'arg':
        instruction.args = parseWords(rest, this.escape, as).map(span);
        break;
      case 'env':
      case 'label': {
        const result = this.nameValues(rest, as, name.toUpperCase(), span);
        if (typeof result === 'string') fail(result);
        else {
          instruction.pairs = result;
          instruction.args = result.flatMap((p) => [
            p.key,
            p.value,
            { value: p.separator, range: p.value.range }
          ]);
        }
        break;
      }
      case 'expose':
      case 'from':
        if (rest !== '') instruction.args = splitWhitespace(rest, as).map(span);
        break;
      case 'healthcheck': {
        let sep = 0;
        while (sep < rest.length && !isSpace(rest[sep])) sep++;
        if (sep === 0) break;
        let next = sep;
        while (next < rest.length && isSpace(rest[next])) next++;
        instruction.args = [span({ value: rest.slice(0, sep), start: as, end: as + sep })];
        const cmd = rest.slice(next);
        const form = parseJsonForm(cmd, as + next);
        if (form.kind === 'json') {
          instruction.json = true;
          instruction.args.push(...form.items.map(span));
        } else if (form.kind === 'not-strings') {
          fail('when using JSON array syntax, arrays must be comprised of strings only');
        } else if (cmd !== '') {
          instruction.args.push(span({ value: cmd, start: as + next, end: ae }));
        }
        break;
      }
      case 'maintainer':
      case 'stopsignal':
      case 'user':
      case 'workdir':
        if (rest !== '') instruction.args = [span(restSpan)];
        break;
      case 'onbuild':
        if (rest !== '') instruction.trigger = this.node(logical, as, ae, []);
        break;
      default:
        // BuildKit keeps an unknown instruction with one empty argument (parseIgnore).
        instruction.args = [span({ value: '', start: as, end: as })];
    }
    return instruction;
  }

  /** BuildKit's parseNameVal: `key=value ...`, or legacy `key value` when the first word has no `=`. */
  private nameValues(
    rest: string,
    base: number,
    keyword: string,
    span: (sp: Span) => Token
  ): KeyValue[] | string {
    const words = parseWords(rest, this.escape, base);
    if (words.length === 0) return [];
    if (!words[0]!.value.includes('=')) {
      const sep = /[\t\v\f\r ]+/.exec(rest);
      if (!sep) return `${keyword} must have two arguments`;
      const valueStart = sep.index + sep[0].length;
      return [
        {
          key: span({ value: rest.slice(0, sep.index), start: base, end: base + sep.index }),
          value: span({
            value: rest.slice(valueStart),
            start: base + valueStart,
            end: base + rest.length
          }),
          separator: ''
        }
      ];
    }
    const pairs: KeyValue[] = [];
    for (const word of words) {
      const eq = word.value.indexOf('=');
      if (eq < 0) {
        return `Syntax error - can't find = in ${goQuote(word.value)}. Must be of the form: name=value`;
      }
      pairs.push({
        key: span({ value: word.value.slice(0, eq), start: word.start, end: word.start + eq }),
        value: span({ value: word.value.slice(eq + 1), start: word.start + eq + 1, end: word.end }),
        separator: '='
      });
    }
    return pairs;
  }

  /** Heredoc bodies follow the instruction line, one after the other, in the order opened. */
  private heredocs(instruction: Instruction, logical: LogicalLine, next: number): number {
    const target = instruction.name === 'onbuild' ? instruction.trigger : instruction;
    if (!target || !HEREDOC_INSTRUCTIONS.has(target.name) || target.json) return next;
    if (!logical.text.includes('<<')) return next;
    let words;
    try {
      words = heredocsOfLine(logical.text);
    } catch (err) {
      this.errors.push({ message: (err as Error).message, range: instruction.range });
      return next;
    }
    let i = next;
    for (const word of words) {
      const bodyStart = i;
      let content = '';
      let terminated = false;
      while (i < this.lines.length) {
        const line = this.lines[i]!;
        i++;
        let candidate = this.source.slice(line.start, line.end);
        if (word.chomp) candidate = candidate.replace(/^\t+/, '');
        if (candidate === word.name) {
          terminated = true;
          break;
        }
        content += this.source.slice(line.start, line.rawEnd);
      }
      const first = this.lines[bodyStart];
      const last = this.lines[i - 1];
      const heredoc: Heredoc = {
        name: word.name,
        fileDescriptor: word.fileDescriptor,
        expand: word.expand,
        chomp: word.chomp,
        content,
        range: this.logicalRange(logical, word.start, word.end),
        bodyRange:
          first && last && i > bodyStart
            ? this.range(first.start, last.end)
            : this.range(this.source.length, this.source.length)
      };
      target.heredocs.push(heredoc);
      if (!terminated) {
        const start = instruction.keywordRange;
        const end = this.range(this.source.length, this.source.length);
        this.errors.push({
          message: 'unterminated heredoc',
          range: {
            line: start.line,
            column: start.column,
            endLine: end.endLine,
            endColumn: end.endColumn
          }
        });
        break;
      }
    }
    return i;
  }

  private position(offset: number): { line: number; column: number } {
    const line = lastAtOrBelow(this.lineStarts, offset);
    return { line: line + 1, column: offset - (this.lineStarts[line] ?? 0) + 1 };
  }

  private range(from: number, to: number): Range {
    const a = this.position(from);
    const b = to === from ? a : this.position(to - 1);
    return {
      line: a.line,
      column: a.column,
      endLine: b.line,
      endColumn: to === from ? a.column : b.column + 1
    };
  }

  private logicalRange(logical: LogicalLine, start: number, end: number): Range {
    if (end > start)
      return this.range(logical.sourceOffset(start)!, logical.sourceOffset(end - 1)! + 1);
    const last = logical.text.length - 1;
    const at = logical.sourceOffset(start) ?? (last >= 0 ? logical.sourceOffset(last)! + 1 : 0);
    return this.range(at, at);
  }
}
