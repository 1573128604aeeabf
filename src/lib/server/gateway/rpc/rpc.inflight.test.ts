import { describe, expect, it } from 'vitest';
import { InFlight } from './rpc.inflight';

describe('InFlight', () => {
  it('runs at most `max` at once, pauses the reader, keeps order, resumes when drained', async () => {
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    const events: string[] = [];
    const gate = new InFlight<number>({
      max: 4,
      maxQueued: 100,
      run: async (n) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 2));
        running--;
        done.push(n);
      },
      pause: () => events.push('pause'),
      resume: () => events.push('resume'),
      overflow: () => events.push('overflow')
    });
    for (let i = 0; i < 20; i++) gate.push(i);
    expect(gate.active).toBe(4);
    expect(gate.queued).toBe(16);
    // Until all 20 ran (5 rounds of 2 ms; a loaded machine may take far longer).
    for (let i = 0; i < 500 && done.length < 20; i++) await new Promise((r) => setTimeout(r, 10));
    expect(peak).toBe(4);
    expect(done).toHaveLength(20);
    expect(done.slice(4).every((n, i) => n > done[i]! - 4)).toBe(true);
    expect(events).toEqual(['pause', 'resume']);
  });

  it('calls overflow instead of queueing without bound', () => {
    let overflows = 0;
    const gate = new InFlight<number>({
      max: 1,
      maxQueued: 2,
      run: () => new Promise(() => {}),
      pause: () => {},
      resume: () => {},
      overflow: () => overflows++
    });
    for (let i = 0; i < 5; i++) gate.push(i);
    expect(gate.queued).toBe(2);
    expect(overflows).toBe(2);
  });
});
