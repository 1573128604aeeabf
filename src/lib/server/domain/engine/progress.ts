import type { Readable } from 'node:stream';
import { DomainError } from '../../errors';

/**
 * Reads a pull or build progress stream to its end. The engine reports a failure as an
 * `{error}` line inside a 200 answer, so the answer's status alone says nothing.
 */
export async function untilDone(
  stream: Readable,
  what: string
): Promise<{ lines: number; last: string }> {
  let pending = '';
  let lines = 0;
  let last = '';
  for await (const chunk of stream) {
    pending += String(chunk);
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) read(line);
  }
  read(pending);
  return { lines, last };

  function read(line: string) {
    if (!line.trim()) return;
    lines += 1;
    let message: { error?: string; status?: string; stream?: string };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return;
    }
    if (message.error) throw new DomainError('CONFLICT', `${what} failed: ${message.error.trim()}`);
    last = (message.status ?? message.stream ?? last).trim() || last;
  }
}
