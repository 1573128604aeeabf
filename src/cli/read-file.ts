import { readFileSync } from 'node:fs';
import type { Io } from './berth.ts';

/** The file's text, or undefined after saying on stderr why it cannot be read. */
export function readBuildFile(file: string, io: Io): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    io.err(
      `berth: cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}\n`
    );
    return undefined;
  }
}
