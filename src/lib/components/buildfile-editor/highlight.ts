/**
 * Highlighting driven by our parser rather than a tokenizer of its own, so it is exactly what
 * BuildKit reads: keywords, flags and their values, FROM's image, AS and stage name, ENV/LABEL
 * keys, JSON-form strings, `$VAR` references, heredoc markers and bodies, comments and parser
 * directives (a `#` line inside a heredoc body is body, not a comment). Only the visible lines
 * are decorated.
 */
import { RangeSetBuilder } from '@codemirror/state';
import {
  Decoration,
  ViewPlugin,
  type DecorationSet,
  type EditorView,
  type ViewUpdate
} from '@codemirror/view';
import type { Instruction, Range } from '$lib/buildfile/types';
import { parsedField, type Parsed } from './parsed';

const mark = (name: string) => Decoration.mark({ class: `cm-bf-${name}` });
const MARKS = {
  keyword: mark('keyword'),
  flag: mark('flag'),
  value: mark('value'),
  image: mark('image'),
  stage: mark('stage'),
  key: mark('key'),
  string: mark('string'),
  variable: mark('variable'),
  heredoc: mark('heredoc'),
  body: mark('body'),
  comment: mark('comment'),
  directive: mark('directive')
};
type Kind = keyof typeof MARKS;

const VARIABLE = /\$(?:\{[A-Za-z_][A-Za-z0-9_]*(?:[:#%/][^}]*)?\}|[A-Za-z_][A-Za-z0-9_]*)/g;

function decorate(view: EditorView): DecorationSet {
  const parsed = view.state.field(parsedField);
  const marks: [number, number, Kind][] = [];
  for (const { from, to } of view.visibleRanges) collect(parsed, from, to, marks);
  marks.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const builder = new RangeSetBuilder<Decoration>();
  // Marks may nest (a variable in a JSON string): CodeMirror nests the spans, the inner wins.
  for (const [from, to, kind] of marks) if (from < to) builder.add(from, to, MARKS[kind]);
  return builder.finish();
}

function collect(parsed: Parsed, from: number, to: number, out: [number, number, Kind][]) {
  const { index, parse, source } = parsed;
  const offset = (line: number, column: number) => index.offset(line, column);
  const add = (r: Range, kind: Kind) => {
    const a = offset(r.line, r.column);
    const b = offset(r.endLine, r.endColumn);
    if (b > from && a < to) out.push([a, b, kind]);
  };
  const firstLine = index.position(from).line;
  const lastLine = index.position(to).line;
  const bodies: Range[] = [];

  const visit = (instruction: Instruction) => {
    add(instruction.keywordRange, 'keyword');
    for (const flag of instruction.flags) {
      const eq = flag.value.indexOf('=');
      const nameEnd = eq < 0 ? flag.range.endColumn : flag.range.column + eq;
      add({ ...flag.range, endLine: flag.range.line, endColumn: nameEnd }, 'flag');
      if (eq >= 0) add({ ...flag.range, column: nameEnd + 1 }, 'value');
    }
    for (const heredoc of instruction.heredocs) {
      add(heredoc.range, 'heredoc');
      add(heredoc.bodyRange, 'body');
      bodies.push(heredoc.bodyRange);
    }
    if (instruction.name === 'from') {
      const [image, as, name] = instruction.args;
      if (image) add(image.range, 'image');
      if (as && as.value.toLowerCase() === 'as') add(as.range, 'keyword');
      if (name) add(name.range, 'stage');
    } else if (instruction.pairs) {
      for (const pair of instruction.pairs) add(pair.key.range, 'key');
    } else if (instruction.json) {
      for (const arg of instruction.args) add(arg.range, 'string');
    }
    for (const arg of instruction.args) {
      const a = offset(arg.range.line, arg.range.column);
      const b = offset(arg.range.endLine, arg.range.endColumn);
      if (b <= from || a >= to) continue;
      for (const m of source.slice(a, b).matchAll(VARIABLE)) {
        out.push([a + m.index, a + m.index + m[0].length, 'variable']);
      }
    }
    if (instruction.trigger) visit(instruction.trigger);
  };
  for (const instruction of parse.instructions) {
    if (instruction.range.endLine < firstLine) continue;
    if (instruction.range.line > lastLine) break;
    visit(instruction);
  }
  for (const directive of parse.directives) add(directive.range, 'directive');
  // Comment lines: a `#` first on a line anywhere but in a heredoc body.
  for (let line = firstLine; line <= lastLine; line++) {
    const text = index.lineText(line);
    if (!/^\s*#/.test(text)) continue;
    if (bodies.some((b) => b.line <= line && line <= b.endLine)) continue;
    if (parse.directives.some((d) => d.range.line === line)) continue;
    const start = offset(line, 1);
    out.push([start + text.indexOf('#'), start + text.length, 'comment']);
  }
}

export const buildFileHighlight = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorate(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged || update.viewportChanged) this.decorations = decorate(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations }
);
