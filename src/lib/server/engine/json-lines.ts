import type { Readable } from 'node:stream';

/** Parsed JSON values of a stream of JSON lines whose chunks do not follow the lines. */
export async function* jsonLines(
  source: Readable,
  maxLineBytes = 1024 * 1024
): AsyncGenerator<unknown> {
  let pending = '';
  for await (const chunk of source) {
    pending += (chunk as Buffer).toString('utf8');
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (line) yield JSON.parse(line) as unknown;
    }
    if (pending.length > maxLineBytes) throw new Error('a JSON line from the engine is too long');
  }
  if (pending.trim()) yield JSON.parse(pending) as unknown;
}
