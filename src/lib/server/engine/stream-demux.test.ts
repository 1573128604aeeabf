import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { demuxLines, StreamDemuxer, type DemuxOptions, type LogRecord } from './stream-demux';

function frame(type: number, payload: string | Buffer): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const head = Buffer.alloc(8);
  head[0] = type;
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
}

/** Feeds `data` cut at `cuts`, collecting every record the demuxer gives. */
function run(data: Buffer, cuts: number[], options: DemuxOptions = {}): LogRecord[] {
  const demux = new StreamDemuxer(options);
  const out: LogRecord[] = [];
  let from = 0;
  for (const cut of [...cuts, data.length]) {
    out.push(...demux.push(data.subarray(from, cut)));
    from = cut;
  }
  out.push(...demux.end());
  return out;
}

/** Every split of `data` into two chunks and, when small enough, into three, gives `expected`. */
function expectAtEveryCut(data: Buffer, expected: LogRecord[], options: DemuxOptions = {}) {
  for (let i = 0; i <= data.length; i++) expect(run(data, [i], options)).toEqual(expected);
  if (data.length <= 400)
    for (let i = 0; i <= data.length; i++)
      for (let j = i; j <= data.length; j++) expect(run(data, [i, j], options)).toEqual(expected);
  const bytes = [...Array(data.length).keys()];
  expect(run(data, bytes, options)).toEqual(expected); // one byte at a time
}

const TS1 = '2026-11-23T11:24:11.665814513Z';
const TS2 = '2026-11-23T11:24:11.665861543Z';
const TS3 = '2026-11-23T11:24:11.666194197Z';

describe('stream demultiplexer', () => {
  it('marks stdout and stderr in order, with stdin frames on stdout, however the chunks fall', () => {
    const data = Buffer.concat([
      frame(1, 'out one\n'),
      frame(2, 'err one\n'),
      frame(0, 'typed in\n'),
      frame(1, 'out two\nout three\n'),
      frame(2, 'ünïcode ✓\n')
    ]);
    expectAtEveryCut(data, [
      { stream: 'stdout', line: 'out one' },
      { stream: 'stderr', line: 'err one' },
      { stream: 'stdout', line: 'typed in' },
      { stream: 'stdout', line: 'out two' },
      { stream: 'stdout', line: 'out three' },
      { stream: 'stderr', line: 'ünïcode ✓' }
    ]);
  });

  it('reads whole one-line frames the same as split ones: \\r\\n, empty text, no timestamp', () => {
    const data = Buffer.concat([
      frame(1, `${TS1} tty line\r\n`),
      frame(2, `${TS2} \n`),
      frame(1, `${TS3}\n`),
      frame(1, 'plain words here\n'),
      frame(1, `${TS1} two\nlines\n`)
    ]);
    expectAtEveryCut(
      data,
      [
        { stream: 'stdout', ts: TS1, line: 'tty line' },
        { stream: 'stderr', ts: TS2, line: '' },
        { stream: 'stdout', line: TS3 },
        { stream: 'stdout', line: 'plain words here' },
        { stream: 'stdout', ts: TS1, line: 'two' },
        { stream: 'stdout', line: 'lines' }
      ],
      { timestamps: true }
    );
  });

  it('splits timestamps off and joins a line split over frames, keeping its first timestamp', () => {
    const data = Buffer.concat([
      frame(1, `${TS1} start\n`),
      frame(1, `${TS2} ${'a'.repeat(40)}`),
      frame(2, `${TS2} between\n`),
      frame(1, `${TS3} ${'b'.repeat(10)}\n`),
      frame(2, `${TS3} \n`)
    ]);
    expectAtEveryCut(
      data,
      [
        { stream: 'stdout', ts: TS1, line: 'start' },
        { stream: 'stderr', ts: TS2, line: 'between' },
        { stream: 'stdout', ts: TS2, line: 'a'.repeat(40) + 'b'.repeat(10) },
        { stream: 'stderr', ts: TS3, line: '' }
      ],
      { timestamps: true }
    );
  });

  it('reads a recorded engine stream: a 20,000-byte line arrives in two frames as one line', () => {
    const data = readFileSync('tests/fixtures/engine/logs-timestamps.bin');
    const expected = [
      { stream: 'stdout', ts: TS1, line: 'out1' },
      { stream: 'stderr', ts: TS2, line: 'err1' },
      { stream: 'stdout', ts: TS3, line: 'x'.repeat(20_000) },
      { stream: 'stdout', ts: '2026-11-23T11:24:11.666305522Z', line: 'end' }
    ];
    for (let i = 0; i <= data.length; i += 7)
      expect(run(data, [i], { timestamps: true })).toEqual(expected);
    expect(run(data, [], { timestamps: true, mode: 'multiplexed' })).toEqual(expected);
  });

  it('passes a TTY stream through as stdout, with or without timestamps', () => {
    const plain = Buffer.from('$ ls\r\nbin  etc\r\n\r\nlast without newline');
    expectAtEveryCut(plain, [
      { stream: 'stdout', line: '$ ls' },
      { stream: 'stdout', line: 'bin  etc' },
      { stream: 'stdout', line: '' },
      { stream: 'stdout', line: 'last without newline' }
    ]);
    const stamped = Buffer.from(`${TS1} one\r\n${TS2} two words\n${TS3} three`);
    expectAtEveryCut(
      stamped,
      [
        { stream: 'stdout', ts: TS1, line: 'one' },
        { stream: 'stdout', ts: TS2, line: 'two words' },
        { stream: 'stdout', ts: TS3, line: 'three' }
      ],
      { timestamps: true }
    );
    // Forced raw: bytes that would look like a header are text.
    expect(run(Buffer.from('\x01\x00\x00\x00ab\n'), [], { mode: 'raw' })).toEqual([
      { stream: 'stdout', line: '\x01\x00\x00\x00ab' }
    ]);
  });

  it('gives a partial final line of each stream at the end, and short streams too', () => {
    const data = Buffer.concat([frame(1, 'no newline'), frame(2, 'nor here')]);
    expectAtEveryCut(data, [
      { stream: 'stdout', line: 'no newline' },
      { stream: 'stderr', line: 'nor here' }
    ]);
    expect(run(Buffer.from('hi'), [])).toEqual([{ stream: 'stdout', line: 'hi' }]);
    expect(run(Buffer.alloc(0), [])).toEqual([]);
  });

  it('keeps text that only looks like a timestamp, and empty frames', () => {
    const data = Buffer.concat([
      frame(1, ''),
      frame(1, `${TS1} real\n`),
      frame(1, 'not-a-time here\n'),
      frame(1, 'nospace\n')
    ]);
    expectAtEveryCut(
      data,
      [
        { stream: 'stdout', ts: TS1, line: 'real' },
        { stream: 'stdout', line: 'not-a-time here' },
        { stream: 'stdout', line: 'nospace' }
      ],
      { timestamps: true }
    );
  });

  it('cuts a line longer than the bound instead of holding it', () => {
    const data = frame(1, 'x'.repeat(25) + '\n');
    expect(run(data, [3, 17], { maxLineBytes: 10 })).toEqual([
      { stream: 'stdout', line: 'x'.repeat(10) },
      { stream: 'stdout', line: 'x'.repeat(10) },
      { stream: 'stdout', line: 'x'.repeat(5) }
    ]);
  });

  it('reads a Readable as batches of lines', async () => {
    const source = Readable.from([frame(1, 'a\nb'), frame(1, '\n'), frame(2, 'c')]);
    const batches: LogRecord[][] = [];
    for await (const batch of demuxLines(source)) batches.push(batch);
    expect(batches).toEqual([
      [{ stream: 'stdout', line: 'a' }],
      [{ stream: 'stdout', line: 'b' }],
      [{ stream: 'stderr', line: 'c' }]
    ]);
  });
});
