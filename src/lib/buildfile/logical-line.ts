/**
 * Source lines and the logical lines a build file's continuations make of them (the parser's
 * first step): each character of a logical line knows its offset in the source.
 */

import { isSpace } from './words.ts';
import { lastAtOrBelow } from './sorted.ts';

export interface SourceLine {
  start: number;
  /** End of the content, line ending excluded. */
  end: number;
  /** End including the line ending. */
  rawEnd: number;
}

export function splitLines(text: string): SourceLine[] {
  const lines: SourceLine[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const rawEnd = nl < 0 ? text.length : nl + 1;
    let end = nl < 0 ? text.length : nl;
    while (end > start && text[end - 1] === '\r') end--;
    lines.push({ start, end, rawEnd });
    start = rawEnd;
  }
  return lines;
}

export const isComment = (line: string) => {
  for (const ch of line) if (!isSpace(ch)) return ch === '#';
  return false;
};

/** The escape character ending a line continues it, unless it is itself escaped. */
export function continuation(line: string, escape: string): { keep: number; continues: boolean } {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  if (end === 0 || line[end - 1] !== escape) return { keep: line.length, continues: false };
  if (end === 1) return { keep: 0, continues: true };
  if (line[end - 2] === escape) return { keep: line.length, continues: false };
  return { keep: end - 1, continues: true };
}

/** A logical line: pieces of source lines joined, each character knowing its source offset. */
export class LogicalLine {
  text = '';
  /** Where each appended piece starts, in `text` and in the source (one entry per piece, not
   *  per character: the parse bench spent its time pushing character offsets). */
  private readonly textStarts: number[] = [];
  private readonly sourceStarts: number[] = [];
  private readonly source: string;
  constructor(source: string) {
    this.source = source;
  }
  append(from: number, to: number): void {
    if (to <= from) return;
    this.textStarts.push(this.text.length);
    this.sourceStarts.push(from);
    this.text += this.source.slice(from, to);
  }
  /** The source offset of `text[i]`, or undefined past the end. */
  sourceOffset(i: number): number | undefined {
    if (i < 0 || i >= this.text.length) return undefined;
    const piece = lastAtOrBelow(this.textStarts, i);
    return this.sourceStarts[piece]! + (i - this.textStarts[piece]!);
  }
}
