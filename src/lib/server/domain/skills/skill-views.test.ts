import { describe, expect, it } from 'vitest';
import type { SkillRunRecord } from '$lib/contracts/assistant';
import { failureDetails } from './skill-views';

const run = (over: Partial<SkillRunRecord>): SkillRunRecord => ({
  runId: 'r1',
  skillId: 's',
  status: 'failed',
  output: null,
  exitCode: null,
  durationMs: 5,
  params: {},
  trigger: 'turn:t1',
  actor: 'main',
  startedAt: 0,
  finishedAt: 5,
  logs: null,
  error: 'boom',
  ...over
});

describe('failureDetails', () => {
  it("gives the exit code, the output and the printed lines, without Berth's own", () => {
    expect(
      failureDetails(
        run({
          exitCode: 3,
          output: 'partial',
          logs: 'first\n[berth] exited with code 3\nsecond'
        })
      )
    ).toEqual({ exitCode: 3, output: 'partial', logs: 'first\nsecond' });
  });

  it('gives nothing for a run that printed nothing and had no process (a time-out)', () => {
    expect(failureDetails(run({ logs: '[berth] timed out after 1000 ms' }))).toEqual({});
  });

  it('keeps only the last 2048 characters of the lines', () => {
    const logs = `${'a'.repeat(3000)}\nend`;
    const details = failureDetails(run({ exitCode: 1, logs }));
    expect(details.logs).toHaveLength(2048);
    expect(String(details.logs).endsWith('\nend')).toBe(true);
  });
});
