/**
 * `berth buildfile dump FILE`: the parse in BuildKit's parser-test format (testfiles result
 * files). A file BuildKit's parser refuses prints `FILE:LINE:COLUMN: message` and exits 1.
 */
import { readFileSync } from 'node:fs';
import { dump } from '../lib/buildfile/dump.ts';
import { parse } from '../lib/buildfile/parser.ts';
import type { Io } from './berth.ts';

export function buildfileDump(args: string[], io: Io): number {
  const [file, ...extra] = args;
  if (file === undefined || extra.length > 0) {
    io.err('Usage: berth buildfile dump FILE\n');
    return 2;
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    io.err(
      `berth: cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}\n`
    );
    return 2;
  }
  const result = parse(text);
  if (result.errors.length > 0) {
    for (const error of result.errors) {
      io.err(`${file}:${error.range.line}:${error.range.column}: ${error.message}\n`);
    }
    return 1;
  }
  io.out(dump(result));
  return 0;
}
