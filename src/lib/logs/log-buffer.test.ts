import { describe, expect, it } from 'vitest';
import { LogBuffer, stripAnsi, type IncomingLine, type LogEntry } from './log-buffer';
import { formatClock, timestampKey } from './timestamp';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function lines(
  from: number,
  count: number,
  prefix = 'line',
  stream: 'stdout' | 'stderr' = 'stdout'
) {
  return Array.from({ length: count }, (_, i): IncomingLine => ({
    stream,
    ts: T0 + from + i,
    line: `${prefix} ${from + i}`
  }));
}

const texts = (entries: readonly LogEntry[]) => entries.map((e) => e.text);

describe('timestampKey', () => {
  it('orders engine timestamps whose trailing zeros are trimmed', () => {
    const a = timestampKey('2026-01-01T00:00:05.1Z');
    const b = timestampKey('2026-01-01T00:00:05.12Z');
    const c = timestampKey('2026-01-01T00:00:05.123456789Z');
    expect(a).toBeLessThan(b);
    expect(b).toBeLessThan(c);
    expect(c - timestampKey('2026-01-01T00:00:05Z')).toBeCloseTo(123.456789, 3);
  });

  it('reads zone offsets and epoch numbers, and refuses anything else', () => {
    expect(timestampKey('2026-01-01T01:00:00.5+01:00')).toBe(T0 + 500);
    expect(timestampKey(T0)).toBe(T0);
    expect(timestampKey('yesterday')).toBeNaN();
  });

  it('formats a clock time with milliseconds', () => {
    expect(formatClock(new Date(2026, 0, 1, 14, 3, 7, 45).getTime())).toBe('14:03:07.045');
    expect(formatClock(Number.NaN)).toBe('');
  });
});

describe('stripAnsi', () => {
  it('removes colour, cursor and OSC sequences and keeps the text', () => {
    expect(stripAnsi('\x1b[1;31merror\x1b[0m: \x1b[2Kdone')).toBe('error: done');
    expect(stripAnsi('\x1b]0;title\x07plain')).toBe('plain');
    expect(stripAnsi('no escapes')).toBe('no escapes');
  });
});

describe('LogBuffer', () => {
  it('queues pushed lines until a flush, then shows them in order', () => {
    const buffer = new LogBuffer(10);
    buffer.push('a', lines(0, 3));
    expect(buffer.view).toHaveLength(0);
    expect(buffer.pendingCount).toBe(3);
    expect(buffer.flush()).toBe(true);
    expect(texts(buffer.view)).toEqual(['line 0', 'line 1', 'line 2']);
    expect(buffer.flush()).toBe(false);
  });

  it('drops the oldest lines past its capacity and counts them', () => {
    const buffer = new LogBuffer(5);
    buffer.push('a', lines(0, 4));
    buffer.flush();
    buffer.push('a', lines(4, 4));
    buffer.flush();
    expect(buffer.size).toBe(5);
    expect(buffer.dropped).toBe(3);
    expect(texts(buffer.view)).toEqual(['line 3', 'line 4', 'line 5', 'line 6', 'line 7']);
    expect(buffer.at(0)?.text).toBe('line 3');
    expect(buffer.at(5)).toBeUndefined();
  });

  it('keeps memory bounded without animation frames by merging once a buffer is queued', () => {
    const buffer = new LogBuffer(100);
    for (let i = 0; i < 10; i++) buffer.push('a', lines(i * 50, 50));
    expect(buffer.pendingCount).toBeLessThan(100);
    expect(buffer.flush()).toBe(true);
    expect(buffer.flush()).toBe(false);
    expect(buffer.size).toBe(100);
    expect(buffer.dropped).toBe(400);
    expect(buffer.view.at(-1)?.text).toBe('line 499');
  });

  it('merges several sources by timestamp, late batches included', () => {
    const buffer = new LogBuffer(100);
    buffer.push(
      'a',
      [0, 10, 20, 30].map((t) => ({ stream: 'stdout', ts: T0 + t, line: `a${t}` }))
    );
    buffer.flush();
    // b's batch arrives after a's although its lines are older.
    buffer.push(
      'b',
      [5, 15, 35].map((t) => ({ stream: 'stdout', ts: T0 + t, line: `b${t}` }))
    );
    buffer.flush();
    expect(texts(buffer.view)).toEqual(['a0', 'b5', 'a10', 'b15', 'a20', 'a30', 'b35']);
    expect(buffer.view.map((e) => e.source)).toEqual(['a', 'b', 'a', 'b', 'a', 'a', 'b']);
  });

  it('drops the oldest by time, not by arrival, when a late merge overflows', () => {
    const buffer = new LogBuffer(3);
    buffer.push(
      'a',
      [10, 20, 30].map((t) => ({ stream: 'stdout', ts: T0 + t, line: `a${t}` }))
    );
    buffer.flush();
    buffer.push('b', [{ stream: 'stdout', ts: T0 + 15, line: 'b15' }]);
    buffer.flush();
    expect(texts(buffer.view)).toEqual(['b15', 'a20', 'a30']);
    expect(buffer.dropped).toBe(1);
  });

  it("keeps a source's arrival order when its timestamps tie or step back", () => {
    const buffer = new LogBuffer(10);
    buffer.push('a', [
      { stream: 'stdout', ts: T0 + 5, line: 'first' },
      { stream: 'stdout', ts: T0 + 5, line: 'second' },
      { stream: 'stderr', ts: T0 + 1, line: 'third' },
      { stream: 'stdout', ts: 'garbage', line: 'fourth' }
    ]);
    buffer.flush();
    expect(texts(buffer.view)).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('filters by stream and by source, markers passing every stream filter', () => {
    const buffer = new LogBuffer(20);
    buffer.push('a', lines(0, 2, 'out'));
    buffer.push('a', lines(2, 2, 'err', 'stderr'));
    buffer.gap('a', 3);
    buffer.push('b', lines(10, 1, 'b-out'));
    buffer.flush();
    buffer.setFilter({ stdout: false });
    expect(texts(buffer.view)).toEqual(['err 2', 'err 3', '3 lines missed']);
    buffer.setFilter({ stdout: true, stderr: false, hidden: ['a'] });
    expect(texts(buffer.view)).toEqual(['b-out 10']);
    // New lines respect the filter in force.
    buffer.push('a', lines(20, 1, 'late'));
    buffer.push('b', lines(21, 1, 'b-err', 'stderr'));
    buffer.push('b', lines(22, 1, 'b-out'));
    buffer.flush();
    expect(texts(buffer.view)).toEqual(['b-out 10', 'b-out 22']);
  });

  it('places gap and end markers right after their source’s last line', () => {
    const buffer = new LogBuffer(20);
    buffer.push('a', lines(0, 2, 'a'));
    buffer.push('b', lines(5, 1, 'b'));
    buffer.flush();
    buffer.gap('a', 1);
    buffer.ended('a', 'container exited');
    buffer.flush();
    expect(texts(buffer.view)).toEqual([
      'a 0',
      'a 1',
      '1 line missed',
      'stream ended: container exited',
      'b 5'
    ]);
    expect(buffer.view.map((e) => e.kind)).toEqual(['line', 'line', 'gap', 'ended', 'line']);
  });

  it('finds matches ignoring case and ANSI codes and steps through them both ways', () => {
    const buffer = new LogBuffer(100);
    buffer.push('a', [
      { stream: 'stdout', ts: T0, line: 'GET /health 200' },
      { stream: 'stdout', ts: T0 + 1, line: '\x1b[31mERR\x1b[0mOR disk full' },
      { stream: 'stdout', ts: T0 + 2, line: 'ok' },
      { stream: 'stderr', ts: T0 + 3, line: 'error: retry (1+1)' }
    ]);
    buffer.flush();
    buffer.setQuery('error');
    expect(texts(buffer.matches)).toEqual(['\x1b[31mERR\x1b[0mOR disk full', 'error: retry (1+1)']);
    expect(buffer.currentMatch).toBe(-1);
    expect(buffer.nextMatch()).toBe(1);
    expect(buffer.nextMatch()).toBe(3);
    expect(buffer.nextMatch()).toBe(1); // wraps
    expect(buffer.prevMatch()).toBe(3); // wraps back
    expect(buffer.currentMatch).toBe(1);
    // Regular-expression characters are searched as text.
    buffer.setQuery('(1+1)');
    expect(buffer.matches).toHaveLength(1);
    buffer.setQuery('');
    expect(buffer.matches).toHaveLength(0);
    expect(buffer.nextMatch()).toBe(-1);
  });

  it('starts from the given row when no match is selected', () => {
    const buffer = new LogBuffer(100);
    buffer.push('a', lines(0, 50));
    buffer.flush();
    buffer.setQuery('line 1'); // line 1, 10..19
    expect(buffer.nextMatch(12)).toBe(12);
    buffer.setQuery('line 1');
    expect(buffer.prevMatch(12)).toBe(11);
    buffer.setQuery('line 1');
    expect(buffer.prevMatch(0)).toBe(19); // nothing before the top: wraps to the last
  });

  it('updates matches as lines arrive, merge and leave, keeping the selection', () => {
    const buffer = new LogBuffer(6);
    buffer.setQuery('hit');
    buffer.push(
      'a',
      [0, 10, 20].map((t) => ({ stream: 'stdout', ts: T0 + t, line: `a${t} hit` }))
    );
    buffer.flush();
    expect(buffer.matches).toHaveLength(3);
    expect(buffer.nextMatch()).toBe(0);
    buffer.nextMatch(); // a10
    buffer.push(
      'b',
      [5, 15].map((t) => ({ stream: 'stdout', ts: T0 + t, line: `b${t} hit` }))
    );
    buffer.flush();
    expect(texts(buffer.matches)).toEqual(['a0 hit', 'b5 hit', 'a10 hit', 'b15 hit', 'a20 hit']);
    expect(buffer.matches[buffer.currentMatch]?.text).toBe('a10 hit');
    expect(buffer.currentViewIndex).toBe(2);
    buffer.push('a', lines(30, 3, 'miss'));
    buffer.flush(); // evicts a0 and b5
    expect(texts(buffer.matches)).toEqual(['a10 hit', 'b15 hit', 'a20 hit']);
    expect(buffer.currentMatch).toBe(0);
    buffer.push('a', lines(40, 3, 'miss'));
    buffer.flush(); // evicts the selected match
    expect(buffer.currentMatch).toBe(-1);
    expect(buffer.currentViewIndex).toBe(-1);
  });

  it('counts what arrives while paused and resets on resume', () => {
    const buffer = new LogBuffer(100);
    buffer.setFilter({ stderr: false });
    buffer.pause();
    buffer.push('a', lines(0, 4));
    buffer.push('a', lines(4, 2, 'err', 'stderr'));
    buffer.flush();
    expect(buffer.following).toBe(false);
    expect(buffer.unseen).toBe(4);
    buffer.resume();
    expect(buffer.following).toBe(true);
    expect(buffer.unseen).toBe(0);
    buffer.push('a', lines(10, 4));
    buffer.flush();
    expect(buffer.unseen).toBe(0);
  });

  it('finds an entry in the view by binary search', () => {
    const buffer = new LogBuffer(100);
    buffer.push('a', lines(0, 20));
    buffer.push('a', lines(20, 1, 'err', 'stderr'));
    buffer.flush();
    const entry = buffer.view[13]!;
    expect(buffer.indexOf(entry)).toBe(13);
    const hidden = buffer.view[20]!;
    buffer.setFilter({ stderr: false });
    expect(buffer.indexOf(hidden)).toBe(-1);
  });

  it('holds 200,000 lines and merges a frame of news in little time', () => {
    const buffer = new LogBuffer();
    for (let i = 0; i < 250_000; i += 5_000) {
      buffer.push('a', lines(i, 5_000));
      buffer.flush();
    }
    expect(buffer.size).toBe(200_000);
    expect(buffer.view).toHaveLength(200_000);
    expect(buffer.dropped).toBe(50_000);
    buffer.setQuery('line 24999'); // 249990..249999; line 24999 itself was dropped
    expect(buffer.matches).toHaveLength(10);
    const started = performance.now();
    buffer.push('a', lines(250_000, 2_000));
    buffer.push('b', lines(249_000, 2_000, 'late'));
    buffer.flush();
    expect(performance.now() - started).toBeLessThan(100);
    expect(buffer.view.at(-1)?.text).toBe('line 251999');
    expect(buffer.view).toHaveLength(200_000);
  });

  it('tells a layout which rows changed: cut from the front, changed from an index', () => {
    const buffer = new LogBuffer(6);
    buffer.push(
      'a',
      [0, 10, 20, 30].map((t) => ({ stream: 'stdout', ts: T0 + t, line: `a${t}` }))
    );
    buffer.flush();
    expect(buffer.takeViewChange()).toEqual({ removed: 0, from: 0 });
    expect(buffer.takeViewChange()).toEqual({ removed: 0, from: 4 });
    // b15 merges in at index 2 and two appended lines push a0 out.
    buffer.push('b', [{ stream: 'stdout', ts: T0 + 15, line: 'b15' }]);
    buffer.push(
      'a',
      [40, 50].map((t) => ({ stream: 'stdout', ts: T0 + t, line: `a${t}` }))
    );
    buffer.flush();
    expect(texts(buffer.view)).toEqual(['a10', 'b15', 'a20', 'a30', 'a40', 'a50']);
    expect(buffer.takeViewChange()).toEqual({ removed: 1, from: 1 });
    // Two flushes before the layout looks: the changes add up.
    buffer.push('a', lines(60, 1));
    buffer.flush();
    buffer.push('a', lines(70, 1));
    buffer.flush();
    expect(buffer.takeViewChange()).toEqual({ removed: 2, from: 4 });
    buffer.setFilter({ stderr: false });
    expect(buffer.takeViewChange()).toEqual({ removed: 0, from: 0 });
  });

  it('refuses a capacity below one', () => {
    expect(() => new LogBuffer(0)).toThrow(RangeError);
  });
});
