import type { Readable } from 'node:stream';

/** One line of container output, in the order the engine sent it. */
export interface LogRecord {
  stream: 'stdout' | 'stderr';
  /** RFC3339Nano, when the stream was opened with `timestamps=1`. */
  ts?: string;
  line: string;
}

export interface DemuxOptions {
  /**
   * `multiplexed`: 8-byte frame headers (a container without a TTY); `raw`: the bytes as written
   * (a TTY), all stdout; `auto`: decided from the first 8 bytes, since the engine's logs answer
   * carries no content type before API 1.42.
   */
  mode?: 'auto' | 'multiplexed' | 'raw';
  /** The stream was opened with `timestamps=1`: each message starts with `<RFC3339Nano> `. */
  timestamps?: boolean;
  /** A line longer than this is cut here, so a line without an end cannot grow memory. */
  maxLineBytes?: number;
}

const HEADER = 8;
const NL = 0x0a;
/** `2006-01-02T15:04:05.000000000Z` with any zone: the longest prefix worth waiting for. */
const TS_MAX = 40;
const TS_PATTERN = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;

/** Assembles the lines of one stream; a line the engine split over frames is joined here. */
class LineAssembler {
  #parts: Buffer[] = [];
  #bytes = 0;
  #ts: string | undefined;
  /** Bytes of a timestamp prefix not complete yet (it may straddle chunks). */
  #prefix: Buffer | null = null;

  constructor(
    private readonly stream: LogRecord['stream'],
    private readonly maxLineBytes: number,
    private readonly out: LogRecord[]
  ) {}

  /** The next bytes begin a message, which carries its own timestamp prefix. */
  expectTimestamp(): void {
    this.#prefix = Buffer.alloc(0);
  }

  write(data: Buffer, timestampsAtLineStart: boolean): void {
    let rest = data;
    while (rest.length > 0) {
      if (this.#prefix) {
        rest = this.#takePrefix(rest);
        if (this.#prefix) return; // the prefix goes on in the next chunk
        continue;
      }
      const nl = rest.indexOf(NL);
      const piece = nl < 0 ? rest : rest.subarray(0, nl);
      this.#append(piece);
      if (nl < 0) return;
      this.#emit();
      rest = rest.subarray(nl + 1);
      if (timestampsAtLineStart) this.expectTimestamp();
    }
  }

  /**
   * Takes message [start, end) when it is one whole line (ending with its only newline) and
   * nothing is partly assembled; false leaves it to write(), which handles every other shape.
   */
  whole(data: Buffer, start: number, end: number, timestamps: boolean): boolean {
    if (this.#bytes > 0 || this.#ts !== undefined || this.#prefix?.length) return false;
    if (end - start > this.maxLineBytes || data[end - 1] !== NL) return false;
    let textStart = start;
    let ts: string | undefined;
    if (timestamps) {
      const space = data.indexOf(0x20, start);
      if (space < 0 || space >= end || space - start > TS_MAX) return false;
      ts = data.toString('latin1', start, space);
      if (!TS_PATTERN.test(ts)) return false;
      textStart = space + 1;
    }
    const nl = data.indexOf(NL, textStart);
    if (nl !== end - 1) return false;
    const textEnd = data[nl - 1] === 0x0d && nl > textStart ? nl - 1 : nl; // a TTY's \r\n
    const line = data.toString('utf8', textStart, textEnd);
    this.#prefix = null;
    this.out.push(
      ts === undefined ? { stream: this.stream, line } : { stream: this.stream, ts, line }
    );
    return true;
  }

  /** The stream ended: a last line without a newline is still a line. */
  end(): void {
    if (this.#prefix?.length) this.#append(this.#prefix);
    this.#prefix = null;
    if (this.#bytes > 0 || this.#ts !== undefined) this.#emit();
  }

  #takePrefix(data: Buffer): Buffer {
    const have = this.#prefix!;
    const room = TS_MAX - have.length;
    const scan = data.subarray(0, room + 1);
    const space = scan.indexOf(0x20);
    const nl = scan.indexOf(NL);
    if (nl >= 0 && (space < 0 || nl < space)) {
      // A line ended before any space: it had no timestamp.
      this.#prefix = null;
      return have.length ? Buffer.concat([have, data]) : data;
    }
    if (space < 0 || space > room) {
      if (data.length < room && space < 0) {
        this.#prefix = Buffer.concat([have, data]);
        return Buffer.alloc(0);
      }
      // No timestamp where one was expected: the bytes are text.
      this.#prefix = null;
      return Buffer.concat([have, data]);
    }
    const candidate = Buffer.concat([have, data.subarray(0, space)]).toString('latin1');
    this.#prefix = null;
    if (!TS_PATTERN.test(candidate)) return Buffer.concat([have, data]);
    // A continuation frame of a split line repeats a timestamp: the line keeps its first.
    if (this.#bytes === 0 && this.#ts === undefined) this.#ts = candidate;
    return data.subarray(space + 1);
  }

  #append(piece: Buffer): void {
    if (piece.length === 0) return;
    let rest = piece;
    while (this.#bytes + rest.length > this.maxLineBytes) {
      const fits = this.maxLineBytes - this.#bytes;
      this.#parts.push(rest.subarray(0, fits));
      this.#bytes += fits;
      this.#emit();
      rest = rest.subarray(fits);
    }
    if (rest.length === 0) return;
    // Copied: the chunk's buffer may be reused by the socket once this returns.
    this.#parts.push(Buffer.from(rest));
    this.#bytes += rest.length;
  }

  #emit(): void {
    let text = Buffer.concat(this.#parts, this.#bytes).toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1); // a TTY ends lines with \r\n
    this.out.push(
      this.#ts === undefined
        ? { stream: this.stream, line: text }
        : { stream: this.stream, ts: this.#ts, line: text }
    );
    this.#parts = [];
    this.#bytes = 0;
    this.#ts = undefined;
  }
}

/**
 * A push parser of the engine's log, attach and exec streams. Chunks may split anything (a header,
 * a timestamp, a UTF-8 character); a chunk may hold many frames. Stream type 0 (stdin) is shown
 * as stdout, as the API says; docker-modem's demuxStream sends it to stderr instead.
 */
export class StreamDemuxer {
  readonly #timestamps: boolean;
  #mode: 'auto' | 'multiplexed' | 'raw';
  /** Header bytes, or the first bytes while the mode is being decided. */
  #head: Buffer = Buffer.alloc(0);
  #frameLeft = 0;
  #frameStream: LineAssembler | null = null;
  readonly #out: LogRecord[] = [];
  readonly #stdout: LineAssembler;
  readonly #stderr: LineAssembler;

  constructor(options: DemuxOptions = {}) {
    this.#mode = options.mode ?? 'auto';
    this.#timestamps = options.timestamps ?? false;
    const max = options.maxLineBytes ?? 1024 * 1024;
    this.#stdout = new LineAssembler('stdout', max, this.#out);
    this.#stderr = new LineAssembler('stderr', max, this.#out);
    if (this.#mode === 'raw' && this.#timestamps) this.#stdout.expectTimestamp();
  }

  /** Feeds one chunk; returns the lines it completed, in order. */
  push(chunk: Buffer): LogRecord[] {
    let data = chunk;
    if (this.#mode === 'auto') {
      this.#head = Buffer.concat([this.#head, data]);
      if (this.#head.length < HEADER) return [];
      this.#mode = looksMultiplexed(this.#head) ? 'multiplexed' : 'raw';
      if (this.#mode === 'raw' && this.#timestamps) this.#stdout.expectTimestamp();
      data = this.#head;
      this.#head = Buffer.alloc(0);
    }
    if (this.#mode === 'raw') this.#stdout.write(data, this.#timestamps);
    else this.#frames(data);
    return this.#out.splice(0);
  }

  /** The stream ended: flushes partial last lines (stdout first, then stderr). */
  end(): LogRecord[] {
    if (this.#mode === 'auto' && this.#head.length > 0) {
      this.#mode = 'raw';
      if (this.#timestamps) this.#stdout.expectTimestamp();
      this.#stdout.write(this.#head, this.#timestamps);
    }
    this.#stdout.end();
    this.#stderr.end();
    return this.#out.splice(0);
  }

  #frames(data: Buffer): void {
    let at = 0;
    while (at < data.length) {
      if (this.#frameLeft === 0 && this.#head.length === 0 && at + HEADER <= data.length) {
        // The usual frame: one whole line with its timestamp, in this chunk, taken without copies.
        const size = data.readUInt32BE(at + 4);
        const end = at + HEADER + size;
        const assembler = data[at] === 2 || data[at] === 3 ? this.#stderr : this.#stdout;
        if (end <= data.length && assembler.whole(data, at + HEADER, end, this.#timestamps)) {
          at = end;
          continue;
        }
      }
      if (this.#frameLeft === 0) {
        const need = HEADER - this.#head.length;
        const take = data.subarray(at, at + need);
        this.#head = this.#head.length ? Buffer.concat([this.#head, take]) : take;
        at += take.length;
        if (this.#head.length < HEADER) return;
        this.#frameLeft = this.#head.readUInt32BE(4);
        this.#frameStream =
          this.#head[0] === 2 || this.#head[0] === 3 ? this.#stderr : this.#stdout;
        this.#head = Buffer.alloc(0);
        if (this.#timestamps && this.#frameLeft > 0) this.#frameStream.expectTimestamp();
        continue;
      }
      const take = Math.min(this.#frameLeft, data.length - at);
      this.#frameStream!.write(data.subarray(at, at + take), false);
      this.#frameLeft -= take;
      at += take;
    }
  }
}

/** Stream type 0–3 then three zero bytes: no TTY output starts like that. */
function looksMultiplexed(head: Buffer): boolean {
  return head[0]! <= 3 && head[1] === 0 && head[2] === 0 && head[3] === 0;
}

/** The lines of an engine stream, in order; ends when the stream does, throws what it throws. */
export async function* demuxLines(
  source: Readable,
  options: DemuxOptions = {}
): AsyncGenerator<LogRecord[]> {
  const demux = new StreamDemuxer(options);
  for await (const chunk of source) {
    const lines = demux.push(chunk as Buffer);
    if (lines.length) yield lines;
  }
  const last = demux.end();
  if (last.length) yield last;
}
