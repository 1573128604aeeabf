import { describe, expect, it } from 'vitest';
import type { LogLine } from '$lib/contracts/realtime';
import { LogOutbox } from './log-outbox';

const at = (n: number) => `2026-01-01T00:00:${String(n).padStart(2, '0')}.000000000Z`;
const line = (n: number, ts = at(n)): LogLine => ({ stream: 'stdout', ts, line: `line ${n}` });

/** A socket that takes `capacity` messages, then nothing until `drain`. */
function slowSocket(capacity = Infinity) {
  const sent: (LogLine[] | { missed: number | null } | { ended: string })[] = [];
  let room = capacity;
  return {
    sent,
    drain(n: number) {
      room = n;
    },
    sink: {
      ready: () => room > 0,
      lines: (lines: LogLine[]) => {
        room -= 1;
        sent.push(lines);
      },
      gap: (missed: number | null) => {
        room -= 1;
        sent.push({ missed });
      },
      ended: (reason: string) => {
        room -= 1;
        sent.push({ ended: reason });
      }
    }
  };
}

const limits = { maxLines: 3, maxBytes: 1_000, batchLines: 2 };

describe('log outbox', () => {
  it('sends in batches while the socket keeps up', () => {
    const socket = slowSocket();
    const box = new LogOutbox(socket.sink, {}, limits);
    box.offer([line(1), line(2), line(3)]);
    expect(socket.sent).toEqual([[line(1), line(2)], [line(3)]]);
    expect(box.held).toBe(0);
  });

  it('holds lines up to its bound for a slow socket, then drops and says how many', () => {
    const socket = slowSocket(0);
    const box = new LogOutbox(socket.sink, {}, limits);
    box.offer([1, 2, 3, 4, 5].map((n) => line(n)));
    expect(box.held).toBe(3);
    expect(socket.sent).toEqual([]);
    socket.drain(1);
    box.pump(); // one message: two lines leave, two places free
    box.offer([6, 7, 8, 9].map((n) => line(n))); // 6 and 7 take them, 8 and 9 are dropped
    socket.drain(10);
    box.pump();
    expect(socket.sent).toEqual([
      [line(1), line(2)],
      [line(3)],
      { missed: 2 },
      [line(6), line(7)],
      { missed: 2 }
    ]);
    expect(box.held).toBe(0);
  });

  it('says the stream ended only after the lines it still holds', () => {
    const socket = slowSocket(0);
    const box = new LogOutbox(socket.sink, {}, limits);
    box.offer([line(1)]);
    box.ended('gone');
    expect(socket.sent).toEqual([]);
    socket.drain(10);
    box.pump();
    expect(socket.sent).toEqual([[line(1)], { ended: 'gone' }]);
  });

  it('sends lines read back ahead of what came after them, held to the first cursor', async () => {
    const socket = slowSocket();
    const box = new LogOutbox(socket.sink, { since: at(2), seen: 1 }, limits);
    let done: (b: { lines: LogLine[]; missed: number | null }) => void = () => undefined;
    box.hold(new Promise((resolve) => (done = resolve)));
    box.offer([line(8), line(9)]); // live lines move the cursor on, and wait
    expect(socket.sent).toEqual([]);
    done({ lines: [line(1), line(2), line(3), line(4)], missed: 3 });
    await Promise.resolve();
    await Promise.resolve();
    expect(socket.sent).toEqual([[line(3), line(4)], { missed: 3 }, [line(8), line(9)]]);
  });

  it('bounds bytes as well as lines', () => {
    const socket = slowSocket(0);
    const box = new LogOutbox(socket.sink, {}, { ...limits, maxLines: 100, maxBytes: 10 });
    box.offer([
      { stream: 'stderr', line: 'x'.repeat(8) },
      { stream: 'stderr', line: 'yyy' }
    ]);
    socket.drain(10);
    box.pump();
    expect(socket.sent).toEqual([[{ stream: 'stderr', line: 'x'.repeat(8) }], { missed: 1 }]);
  });

  it('skips what a resuming viewer holds: older lines, and the seen ones of its last instant', () => {
    const socket = slowSocket();
    const box = new LogOutbox(
      socket.sink,
      { since: at(2), seen: 2 },
      { ...limits, batchLines: 10 }
    );
    const same = (n: number) => line(n, at(2));
    box.offer([line(1), same(20), same(21), same(22)]);
    box.offer([line(3), line(2)]); // once past the cursor, nothing more is skipped
    expect(socket.sent).toEqual([[same(22)], [line(3), line(2)]]);
  });

  it('is not re-entered by a socket that drains while it sends', () => {
    const sent: LogLine[][] = [];
    let box: LogOutbox | null = null;
    box = new LogOutbox(
      {
        ready: () => true,
        lines: (lines) => {
          sent.push(lines);
          box?.pump(); // as engine.io's drain does, synchronously
        },
        gap: () => undefined,
        ended: () => undefined
      },
      {},
      limits
    );
    box.offer([1, 2, 3, 4, 5].map((n) => line(n)));
    // More lines than the bound in one offer: a socket that keeps up still gets them all.
    expect(sent).toEqual([[line(1), line(2)], [line(3)], [line(4), line(5)]]);
  });
});
