import { describe, expect, it } from 'vitest';
import { LogViewerState } from './log-viewer.svelte';

/** Frames run when the test says so, as the browser would run them once per paint. */
function frames() {
  const queue: (() => void)[] = [];
  return {
    requestFrame: (callback: () => void) => {
      queue.push(callback);
      return () => queue.splice(queue.indexOf(callback), 1);
    },
    run: () => queue.splice(0).forEach((f) => f()),
    get waiting() {
      return queue.length;
    }
  };
}

const source = { id: 'web', label: 'web', colour: '#3451c7' };

describe('LogViewerState', () => {
  it('merges every batch pushed before a frame in that one frame', () => {
    const clock = frames();
    const viewer = new LogViewerState([source], { requestFrame: clock.requestFrame });
    for (let i = 0; i < 5; i++) viewer.push('web', [{ stream: 'stdout', ts: i, line: `l${i}` }]);
    expect(clock.waiting).toBe(1);
    expect(viewer.revision).toBe(0);
    clock.run();
    expect(viewer.revision).toBe(1);
    expect(viewer.size).toBe(5);
    expect(viewer.buffer.view).toHaveLength(5);
  });

  it('mirrors search, filters, follow and drops', () => {
    const clock = frames();
    const viewer = new LogViewerState([source], { capacity: 3, requestFrame: clock.requestFrame });
    viewer.push('web', [
      { stream: 'stdout', ts: 1, line: 'alpha' },
      { stream: 'stderr', ts: 2, line: 'beta' },
      { stream: 'stdout', ts: 3, line: 'alphabet' },
      { stream: 'stdout', ts: 4, line: 'gamma' }
    ]);
    viewer.flush();
    expect(clock.waiting).toBe(0);
    expect(viewer.dropped).toBe(1);
    viewer.setQuery('ALPHA');
    expect(viewer.matchCount).toBe(1);
    expect(viewer.pattern?.test('alphabet')).toBe(true);
    expect(viewer.nextMatch()).toBe(1);
    expect(viewer.currentMatch).toBe(0);
    expect(viewer.isCurrentMatch(viewer.buffer.view[1]!)).toBe(true);
    viewer.setStream('stderr', false);
    expect(viewer.buffer.view.map((e) => e.text)).toEqual(['alphabet', 'gamma']);
    expect(viewer.matchCount).toBe(1);
    expect(viewer.currentMatch).toBe(0); // the selection survives a filter that keeps it
    viewer.toggleSource('web');
    expect(viewer.buffer.view).toHaveLength(0);
    viewer.toggleSource('web');
    viewer.pause();
    viewer.push('web', [{ stream: 'stdout', ts: 5, line: 'delta' }]);
    clock.run();
    expect(viewer.following).toBe(false);
    expect(viewer.unseen).toBe(1);
    viewer.resume();
    expect(viewer.following).toBe(true);
    expect(viewer.unseen).toBe(0);
  });

  it('spaces frames 100 ms apart during a burst, and shows a quiet line at the next frame', () => {
    const clock = frames();
    let time = 1_000;
    const delays: { callback: () => void; ms: number }[] = [];
    const viewer = new LogViewerState([source], {
      requestFrame: clock.requestFrame,
      now: () => time,
      delay: (callback, ms) => {
        const d = { callback, ms };
        delays.push(d);
        return () => delays.splice(delays.indexOf(d), 1);
      }
    });
    const burst = (from: number) =>
      Array.from({ length: 300 }, (_, i) => ({
        stream: 'stdout' as const,
        ts: from + i,
        line: `l${from + i}`
      }));
    viewer.push('web', burst(0));
    clock.run();
    expect(viewer.size).toBe(300);
    time += 16;
    viewer.push('web', burst(300));
    expect(clock.waiting).toBe(0);
    expect(delays.map((d) => d.ms)).toEqual([84]);
    viewer.push('web', burst(600)); // joins the frame already waiting
    expect(delays).toHaveLength(1);
    time += 84;
    delays.splice(0).forEach((d) => d.callback());
    clock.run();
    expect(viewer.size).toBe(900);
    expect(viewer.revision).toBe(2);

    // The last frame merged 600: a burst still; a frame of a few lines ends it.
    time += 200;
    viewer.push('web', [{ stream: 'stdout', ts: 2_000, line: 'quiet' }]);
    expect(delays).toHaveLength(0);
    clock.run();
    viewer.push('web', [{ stream: 'stdout', ts: 2_001, line: 'quiet again' }]);
    expect(delays).toHaveLength(0);
    expect(clock.waiting).toBe(1);
  });

  it('cancels a delayed frame when disposed', () => {
    const clock = frames();
    let time = 0;
    let cancelled = 0;
    const viewer = new LogViewerState([source], {
      requestFrame: clock.requestFrame,
      now: () => time,
      delay: () => () => cancelled++
    });
    viewer.push(
      'web',
      Array.from({ length: 250 }, (_, i) => ({ stream: 'stdout' as const, ts: i, line: 'x' }))
    );
    clock.run();
    time = 10;
    viewer.push('web', [{ stream: 'stdout', ts: 300, line: 'y' }]);
    viewer.dispose();
    expect(cancelled).toBe(1);
  });

  it('cancels its frame when disposed', () => {
    const clock = frames();
    const viewer = new LogViewerState([source], { requestFrame: clock.requestFrame });
    viewer.push('web', [{ stream: 'stdout', ts: 1, line: 'x' }]);
    viewer.dispose();
    expect(clock.waiting).toBe(0);
  });
});
