/**
 * `berth buildfile dump FILE`: the parse in BuildKit's parser-test format (testfiles result
 * files). A file BuildKit's parser refuses prints `FILE:LINE:COLUMN: message` and exits 1.
 */
import { dump } from '../lib/buildfile/dump.ts';
import { parse } from '../lib/buildfile/parser.ts';
import type { Io } from './berth.ts';
import { readBuildFile } from './read-file.ts';

export function buildfileDump(args: string[], io: Io): number {
  const [file, ...extra] = args;
  if (file === undefined || extra.length > 0) {
    io.err('Usage: berth buildfile dump FILE\n');
    return 2;
  }
  const text = readBuildFile(file, io);
  if (text === undefined) return 2;
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
