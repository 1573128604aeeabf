/**
 * Formatting a build file, conservatively: on each instruction's first line the keyword is
 * upper-cased (FROM's `AS` too), indentation before it removed and the spacing after it made one
 * space. Nothing else moves: continuation lines keep their hand alignment, heredoc bodies,
 * comments and arguments stay as written. The result is edits, so an editor keeps the cursor.
 */

import { INSTRUCTIONS } from '../lint/flags.ts';
import { parse } from '../parser.ts';
import type { Instruction, ParseResult } from '../types.ts';
import type { TextEdit } from '../lint/types.ts';
import { applyChanges, editChange, LineIndex } from './positions.ts';

const KNOWN = new Set(INSTRUCTIONS);

export function formatEdits(source: string, parsed: ParseResult = parse(source)): TextEdit[] {
  const index = new LineIndex(source);
  const edits: TextEdit[] = [];
  const visit = (instruction: Instruction, first: boolean) => {
    const { line, column, endColumn } = instruction.keywordRange;
    const text = index.lineText(line);
    if (first && column > 1 && text.slice(0, column - 1).trim() === '') {
      edits.push({ line, column: 1, endLine: line, endColumn: column, text: '' });
    }
    if (KNOWN.has(instruction.name) && instruction.keyword !== instruction.keyword.toUpperCase()) {
      edits.push({ ...instruction.keywordRange, text: instruction.keyword.toUpperCase() });
    }
    // The run of blanks after the keyword, when something follows on the same line.
    const rest = text.slice(endColumn - 1);
    const blanks = /^[ \t]*/.exec(rest)![0];
    if (blanks.length < rest.length && blanks !== ' ') {
      edits.push({
        line,
        column: endColumn,
        endLine: line,
        endColumn: endColumn + blanks.length,
        text: ' '
      });
    }
    const as = instruction.name === 'from' ? instruction.args[1] : undefined;
    if (as && as.value.toLowerCase() === 'as' && as.value !== 'AS') {
      edits.push({ ...as.range, text: 'AS' });
    }
    if (instruction.trigger) visit(instruction.trigger, false);
  };
  for (const instruction of parsed.instructions) visit(instruction, true);
  return edits;
}

export function formatBuildFile(source: string): string {
  const index = new LineIndex(source);
  return applyChanges(
    source,
    formatEdits(source).map((edit) => editChange(index, edit))
  );
}
