/**
 * Between the syntax tree's 1-based line/column positions (columns in UTF-16 units, as the
 * parser and the linter give them) and the 0-based offsets an editor indexes by.
 */

import type { Fix, TextEdit } from '../lint/types.ts';
import { lastAtOrBelow } from '../sorted.ts';

export class LineIndex {
  /** Offset of the first character of each line. */
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
      this.starts.push(i + 1);
    }
  }

  get lines(): number {
    return this.starts.length;
  }

  /** Offset of a 1-based line and column, clamped to the line (a column past its end lands on it). */
  offset(line: number, column: number): number {
    const l = Math.min(Math.max(line, 1), this.starts.length);
    const start = this.starts[l - 1]!;
    const next = l < this.starts.length ? this.starts[l]! - 1 : this.text.length;
    return Math.min(start + Math.max(column, 1) - 1, next);
  }

  /** The 1-based line and column of an offset. */
  position(offset: number): { line: number; column: number } {
    const line = lastAtOrBelow(this.starts, offset);
    return { line: line + 1, column: offset - this.starts[line]! + 1 };
  }

  lineText(line: number): string {
    const start = this.starts[line - 1]!;
    const end = line < this.starts.length ? this.starts[line]! - 1 : this.text.length;
    return this.text.slice(start, end);
  }
}

export interface Change {
  from: number;
  to: number;
  insert: string;
}

/** A text edit as an offset change on the text the index was built from. */
export function editChange(index: LineIndex, edit: TextEdit): Change {
  return {
    from: index.offset(edit.line, edit.column),
    to: index.offset(edit.endLine, edit.endColumn),
    insert: edit.text
  };
}

/** A diagnostic's fix as offset changes, in order (its edits never overlap). */
export function fixChanges(index: LineIndex, fix: Fix): Change[] {
  return fix.edits.map((edit) => editChange(index, edit)).sort((a, b) => a.from - b.from);
}

/** Applies changes computed on `text` (non-overlapping) and returns the new text. */
export function applyChanges(text: string, changes: readonly Change[]): string {
  let out = '';
  let at = 0;
  for (const change of [...changes].sort((a, b) => a.from - b.from)) {
    out += text.slice(at, change.from) + change.insert;
    at = change.to;
  }
  return out + text.slice(at);
}
