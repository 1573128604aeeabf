import { get, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineClient } from '../../src/lib/server/engine/engine.client';
import type { EngineStreams } from '../../src/lib/server/engine/engine-streams';
import { RawEngineStreams } from '../../src/lib/server/engine/raw-streams';
import { demuxLines, type LogRecord } from '../../src/lib/server/engine/stream-demux';
import type { Publish, SourceEvents } from '../../src/lib/server/realtime/channel-hub';
import { containerLogsSource } from '../../src/lib/server/realtime/sources/container-logs.source';
import {
  buildTestImage,
  ENGINE_SOCKET,
  removeLabelled,
  runContainer,
  stopContainer,
  waitExit
} from './helpers/engine-streams';

const LABEL = `streams-${process.pid}`;
const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/;

type Sent = {
  [E in keyof SourceEvents]: [E, ...Parameters<SourceEvents[E]>];
}[keyof SourceEvents];

/** A publish function that records, and resolves `until` once a predicate holds. */
function recorder() {
  const sent: Sent[] = [];
  const waiters: { test: () => boolean; done: () => void }[] = [];
  const publish = ((...args: Sent) => {
    sent.push(args);
    for (const w of [...waiters]) if (w.test()) w.done();
  }) as Publish;
  const until = (test: () => boolean, ms = 5000) =>
    new Promise<void>((done, fail) => {
      if (test()) return done();
      const timer = setTimeout(() => fail(new Error(`timed out: ${JSON.stringify(sent)}`)), ms);
      waiters.push({ test, done: () => (clearTimeout(timer), done()) });
    });
  const lines = () =>
    sent.flatMap((s) => (s[0] === 'container.log' ? s[1].lines.map((l) => l.line) : []));
  return { sent, publish, until, lines };
}

describe('engine streams (real engine)', () => {
  let image: string;
  let version: string;
  let raw: RawEngineStreams;
  const EVENTS = ['data', 'end', 'error', 'close', 'readable'] as const;
  /** Streams the sources opened, with their listener counts before a source touched them. */
  const opened: { stream: Readable; before: number[] }[] = [];
  const listeners = (s: Readable) => EVENTS.map((e) => s.listenerCount(e));
  /** The raw opener, keeping each stream it opens so the test can look at it afterwards. */
  const engines = (name: string): EngineStreams | null =>
    name !== 'local'
      ? null
      : {
          openLogs: async (id, o) => {
            const stream = await raw.openLogs(id, o);
            opened.push({ stream, before: listeners(stream) });
            return stream;
          },
          openStats: (id) => raw.openStats(id),
          openEvents: (o) => raw.openEvents(o)
        };

  beforeAll(async () => {
    image = buildTestImage(LABEL);
    const client = new EngineClient({ socketPath: ENGINE_SOCKET });
    await client.check();
    version = client.apiVersion!;
    raw = new RawEngineStreams({ socketPath: ENGINE_SOCKET }, () => Promise.resolve(version));
  });
  afterAll(() => removeLabelled(LABEL, image));

  it('demultiplexes a live followed stream: interleaved stdout and stderr, a line over 16 KiB, a partial last line', async () => {
    const id = runContainer(
      image,
      LABEL,
      // Lines 300 ms apart: the engine reads stdout and stderr separately, so closer ones can
      // be stored out of order when it is busy.
      `usleep 300000; echo out1; usleep 300000; echo err1 >&2; usleep 300000;
       head -c 20000 /dev/zero | tr '\\0' y; echo; usleep 300000; echo err2 >&2; usleep 300000;
       printf partial`
    );
    const read = async (follow: boolean) => {
      const res = await new Promise<IncomingMessage>((done, fail) =>
        get(
          {
            socketPath: ENGINE_SOCKET,
            path: `/v${version}/containers/${id}/logs?follow=${follow ? 1 : 0}&stdout=1&stderr=1&timestamps=1`
          },
          done
        ).on('error', fail)
      );
      expect(res.statusCode).toBe(200);
      const records: LogRecord[] = [];
      for await (const batch of demuxLines(res, { timestamps: true })) records.push(...batch);
      return records;
    };
    const expected = [
      ['stdout', 'out1'],
      ['stderr', 'err1'],
      ['stdout', 'y'.repeat(20_000)],
      ['stderr', 'err2'],
      ['stdout', 'partial']
    ];
    // Followed live: the engine may close a follow at the exit before it stores the unended
    // last line, so that line is checked on the stored log below.
    const live = await read(true);
    expect(live.map(({ stream, line }) => [stream, line])).toEqual(expected.slice(0, live.length));
    expect(live.length).toBeGreaterThanOrEqual(4);
    waitExit(id);
    const stored = await read(false);
    expect(stored.map(({ stream, line }) => [stream, line])).toEqual(expected);
    const stamps = stored.map((r) => r.ts ?? '');
    for (const ts of stamps) expect(ts).toMatch(TS);
    expect([...stamps].sort()).toEqual(stamps);
  });

  it('tells members when the container stops mid-follow, and leaves no listener behind', async () => {
    const id = runContainer(
      image,
      LABEL,
      'i=0; while true; do i=$((i+1)); echo "n $i"; usleep 50000; done'
    );
    const r = recorder();
    opened.length = 0;
    const source = containerLogsSource(engines)({ engine: 'local', id }, r.publish, {});
    await r.until(() => r.lines().length >= 3);
    stopContainer(id);
    await r.until(() => r.sent.some((s) => s[0] === 'stream.ended'));
    const ended = r.sent.at(-1)!;
    expect(ended).toEqual([
      'stream.ended',
      {
        channel: `container.logs:local:${id}`,
        reason: 'the log stream ended: the container stopped, or the engine closed it'
      }
    ]);
    // Consecutive numbers, in order: nothing lost or repeated on the way.
    const numbers = r.lines().map((l) => Number(l.split(' ')[1]));
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    source.stop();
    const [{ stream, before }] = opened as [(typeof opened)[0]];
    expect(stream.destroyed).toBe(true);
    expect(listeners(stream)).toEqual(before);
  });

  it('closes the engine request when the last member leaves', async () => {
    const id = runContainer(image, LABEL, 'while true; do echo tick; usleep 50000; done');
    const r = recorder();
    opened.length = 0;
    const source = containerLogsSource(engines)({ engine: 'local', id }, r.publish, { tail: 0 });
    await r.until(() => r.lines().length >= 2);
    source.stop();
    const [{ stream, before }] = opened as [(typeof opened)[0]];
    await new Promise((done) => setTimeout(done, 100));
    expect(stream.destroyed).toBe(true);
    expect((stream as IncomingMessage).socket?.destroyed ?? true).toBe(true);
    expect(listeners(stream)).toEqual(before);
    const heard = r.sent.length;
    await new Promise((done) => setTimeout(done, 200));
    expect(r.sent.length).toBe(heard); // nothing after the stop, not even stream.ended
    stopContainer(id);
  });

  it('says a container that does not exist does not exist, and an exited one ends at once', async () => {
    const r = recorder();
    containerLogsSource(engines)({ engine: 'local', id: 'no-such-container-e92' }, r.publish, {});
    await r.until(() => r.sent.length > 0);
    expect(r.sent).toEqual([
      [
        'stream.ended',
        {
          channel: 'container.logs:local:no-such-container-e92',
          reason: 'container no-such-container-e92 does not exist'
        }
      ]
    ]);
    expect(() => containerLogsSource(engines)({ engine: 'other', id: 'x' }, r.publish, {})).toThrow(
      'no engine is named other'
    );

    const id = runContainer(image, LABEL, 'echo done');
    waitExit(id);
    const done = recorder();
    containerLogsSource(engines)({ engine: 'local', id }, done.publish, {});
    await done.until(() => done.sent.some((s) => s[0] === 'stream.ended'));
    expect(done.lines()).toEqual(['done']);
  });
});
