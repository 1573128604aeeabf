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
    expect(unpackLogLines(JSON.parse(JSON.stringify(packed)) as typeof packed)).toEqual(lines);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify({ lines }).length * 0.8);
  });
});
