import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { endSoon } from './flush';

const fake = (log: string[], name: string, fail = false) =>
  ({
    end: (body?: string) => {
      if (fail) throw new Error('socket gone');
      log.push(`${name}:${body ?? ''}`);
    },
    destroy: () => log.push(`${name}:destroyed`)
  }) as unknown as ServerResponse;

describe('endSoon', () => {
  it('ends every queued answer in order in the check phase, one failure apart', async () => {
    const log: string[] = [];
    endSoon(fake(log, 'a'), '1');
    endSoon(fake(log, 'b', true), '2');
    endSoon(fake(log, 'c'));
    expect(log).toEqual([]);
    await new Promise((done) => setImmediate(done));
    expect(log).toEqual(['a:1', 'b:destroyed', 'c:']);
    endSoon(fake(log, 'd'), '4');
    await new Promise((done) => setImmediate(done));
    expect(log.at(-1)).toBe('d:4');
  });
});
