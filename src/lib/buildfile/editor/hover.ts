/** The documentation under a position: an instruction keyword, a flag, or a `--mount` type. */

import type { Instruction, ParseResult, Range } from '../types.ts';
import { FLAG_DOCS, INSTRUCTION_DOCS, MOUNT_TYPE_DOCS, type Doc } from './docs.ts';

export interface HoverDoc {
  /** `RUN`, `RUN --mount`, `--mount type=cache`. */
  title: string;
  doc: Doc;
  range: Range;
}

const inside = (r: Range, line: number, column: number) =>
  (line > r.line || (line === r.line && column >= r.column)) &&
  (line < r.endLine || (line === r.endLine && column < r.endColumn));

export function hoverAt(parsed: ParseResult, line: number, column: number): HoverDoc | null {
  const instruction = parsed.instructions.find(
    (i) => i.range.line <= line && line <= i.range.endLine
  );
  return instruction ? hoverIn(instruction, line, column) : null;
}

function hoverIn(instruction: Instruction, line: number, column: number): HoverDoc | null {
  const keyword = instruction.keyword.toUpperCase();
  if (inside(instruction.keywordRange, line, column)) {
    const doc = INSTRUCTION_DOCS[instruction.name];
    return doc ? { title: keyword, doc, range: instruction.keywordRange } : null;
  }
  for (const flag of instruction.flags) {
    if (!inside(flag.range, line, column)) continue;
    const doc = FLAG_DOCS[instruction.name]?.[flag.name];
    if (!doc) return null;
    if (
      instruction.name === 'run' &&
      flag.name === 'mount' &&
      flag.range.line === flag.range.endLine
    ) {
      // Over `type=<t>` inside the value: that mount type's page.
      const type = /(^|,)type=([a-z]+)/i.exec(flag.flagValue ?? '');
      if (type) {
        const start = flag.range.column + '--mount='.length + type.index + type[1]!.length;
        const range = {
          line,
          column: start,
          endLine: line,
          endColumn: start + type[0].length - type[1]!.length
        };
        const typeDoc = MOUNT_TYPE_DOCS[type[2]!.toLowerCase()];
        if (typeDoc && inside(range, line, column)) {
          return { title: `--mount type=${type[2]!.toLowerCase()}`, doc: typeDoc, range };
        }
      }
    }
    return { title: `${keyword} --${flag.name}`, doc, range: flag.range };
  }
  return instruction.trigger ? hoverIn(instruction.trigger, line, column) : null;
}
