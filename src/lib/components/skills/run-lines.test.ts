import { describe, expect, it } from 'vitest';
import type { SkillLogLine } from '$lib/contracts/assistant';
import { appendLines, MAX_LINES } from './run-lines';

const line = (at: number, text: string, stream: SkillLogLine['stream'] = 'stderr') => ({
  at,
  text,
  stream
});

describe('a run’s lines in the page', () => {
  it('skips the lines a rejoin repeats, keeps the new ones in order', () => {
    const shown = [line(1, 'a'), line(2, 'b')];
    const repeated = [line(1, 'a'), line(2, 'b'), line(3, 'c')];
    expect(appendLines(shown, repeated, true).map((l) => l.text)).toEqual(['a', 'b', 'c']);
  });

  it('keeps every line of a later batch, even one that looks like an earlier one', () => {
    const shown = [line(1, 'tick')];
    expect(appendLines(shown, [line(1, 'tick')], false)).toHaveLength(2);
    // The same text on another stream is another line.
    expect(appendLines(shown, [line(1, 'tick', 'stdout')], true)).toHaveLength(2);
  });

  it('keeps the last lines when a run prints more than the page holds', () => {
    const many = Array.from({ length: MAX_LINES + 10 }, (_, i) => line(i, `l${i}`));
    const kept = appendLines([], many, false);
    expect(kept).toHaveLength(MAX_LINES);
    expect(kept[0]?.text).toBe('l10');
  });
});
