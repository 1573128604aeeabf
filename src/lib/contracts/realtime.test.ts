import { describe, expect, it } from 'vitest';
import { packLogLines, unpackLogLines, type LogLine } from './realtime';

describe('packed log lines', () => {
  it('carry stream, time and text of each line in order', () => {
    const lines: LogLine[] = [
      { stream: 'stdout', ts: '2026-11-23T10:00:00.000000001Z', line: 'one' },
      { stream: 'stderr', ts: '2026-11-23T10:00:00.000000002Z', line: 'two, "quoted"' },
      { stream: 'stdout', line: 'no time' },
      { stream: 'stderr', ts: '2026-11-23T10:00:00.000000003Z', line: '' }
    ];
    const packed = packLogLines('container.logs:local:web', lines);
    expect(packed.stderr).toEqual([1, 3]);
    expect(packed.ts[2]).toBe('');
    // The times' common start goes once.
    expect(packed.tsPrefix).toBe('2026-11-23T10:00:00.00000000');
    expect(packed.ts[0]).toBe('1Z');
    expect(unpackLogLines(JSON.parse(JSON.stringify(packed)) as typeof packed)).toEqual(lines);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify({ lines }).length * 0.8);
  });

  it('keep every time whole when they share little or one stands alone', () => {
    const lines: LogLine[] = [
      { stream: 'stdout', ts: '2026-11-23T10:00:00.5Z', line: 'a' },
      { stream: 'stdout', ts: '2026-11-23T10:00:00.5Z', line: 'same time' },
      { stream: 'stdout', ts: '2026-11-23T10:00:01Z', line: 'shorter' },
      { stream: 'stdout', ts: '2026-11-24T00:00:00.123456789Z', line: 'next day' }
    ];
    const packed = packLogLines('c', lines);
    expect(packed.tsPrefix).toBe('2026-11-2');
    expect(unpackLogLines(packed)).toEqual(lines);
    // A shorter time later on does not take the earlier ones' prefix with it.
    const shorter = lines.slice(0, 3);
    expect(unpackLogLines(packLogLines('c', shorter))).toEqual(shorter);
    const one: LogLine[] = [{ stream: 'stderr', ts: '2026-11-23T10:00:00Z', line: 'x' }];
    const single = packLogLines('c', one);
    expect(single.ts[0]).not.toBe('');
    expect(unpackLogLines(single)).toEqual(one);
    expect(packLogLines('c', [{ stream: 'stdout', line: 'untimed' }]).tsPrefix).toBe('');
  });
});
