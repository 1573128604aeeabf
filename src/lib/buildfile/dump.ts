/**
 * The parse printed as BuildKit's parser tests print their `testfiles/<case>/result` files
 * (`Node.Dump()`): one parenthesised line per instruction, the lowercased keyword, the flags as
 * a Go-quoted list when there are any, then every argument Go-quoted. ONBUILD nests its
 * trigger; heredoc bodies are not printed (BuildKit keeps them beside the tree).
 */

import { goQuote, goQuoteList } from './go-quote.ts';
import type { Instruction, ParseResult } from './types.ts';

export function dumpInstruction(instruction: Instruction): string {
  let out = instruction.name;
  if (instruction.flags.length > 0) out += ' ' + goQuoteList(instruction.flags.map((f) => f.value));
  if (instruction.trigger) out += ` (${dumpInstruction(instruction.trigger)})`;
  for (const arg of instruction.args) out += ' ' + goQuote(arg.value);
  return out.trim();
}

/** The whole file, with the trailing newline the result files end with. */
export function dump(result: ParseResult): string {
  return result.instructions.map((i) => `(${dumpInstruction(i)})\n`).join('');
}
