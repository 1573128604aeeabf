import { describe, expect, it } from 'vitest';
import { formatInterval, heartbeatTimes } from './format';

describe('agent formats', () => {
  it('says an interval as people do', () => {
    expect(formatInterval(45_000)).toBe('45 s');
    expect(formatInterval(90_000)).toBe('1 min 30 s');
    expect(formatInterval(5_400_000)).toBe('1 h 30 min');
  });

  it('counts heartbeat ticks on from what the server reported', () => {
    const agent = { heartbeatMs: 1000, lastHeartbeatAt: 10_000, nextHeartbeatAt: 11_000 };
    expect(heartbeatTimes(agent, 10_500)).toEqual({ last: 10_000, next: 11_000 });
    expect(heartbeatTimes(agent, 11_000)).toEqual({ last: 11_000, next: 12_000 });
    expect(heartbeatTimes(agent, 13_400)).toEqual({ last: 13_000, next: 14_000 });
    // A beat asked for out of turn (mode "now") after the last tick stays the last one.
    expect(heartbeatTimes({ ...agent, lastHeartbeatAt: 10_800 }, 10_900).last).toBe(10_800);
  });

  it('shows no next beat without a timer, and no last beat before the first', () => {
    expect(
      heartbeatTimes({ heartbeatMs: 1000, lastHeartbeatAt: 5000, nextHeartbeatAt: null }, 9000)
    ).toEqual({ last: 5000, next: null });
    expect(
      heartbeatTimes({ heartbeatMs: 1000, lastHeartbeatAt: null, nextHeartbeatAt: 9500 }, 9000)
    ).toEqual({ last: null, next: 9500 });
  });
});
