import { BUILD_LOG_MAX_BYTES, type BuildLine } from '$lib/contracts/buildfiles';

/** A JSON progress line of the engine's /build answer. */
interface BuildMessage {
  stream?: string;
  status?: string;
  id?: string;
  progress?: string;
  error?: string;
  errorDetail?: { message?: string };
  aux?: { ID?: string };
}

/** Lines a late joiner gets: the last ones printed. */
export const RING_LINES = 5000;
/** One printed line at most; the engine's lines are far shorter, a runaway RUN's may not be. */
const LINE_MAX = 16 * 1024;
const STEP = /^Step (\d+)\/(\d+) : (.*)$/;
const BUILT = /^Successfully built ([0-9a-f]{12,64})$/;

/**
 * A build's output as the console shows it: the engine's JSON progress lines (stream, status,
 * error, aux ID) turned into printed lines, `Step N/M : INSTR` marked as steps with the line of
 * the Nth instruction of the build file, errors apart. Keeps the last RING_LINES lines for
 * late joiners and the log for the history, capped at BUILD_LOG_MAX_BYTES.
 */
export class BuildOutput {
  readonly ring: BuildLine[] = [];
  log = '';
  logTruncated = false;
  imageId: string | null = null;
  error: string | null = null;
  /** The last step begun: where a failure happened. */
  step: { n: number; total: number; text: string; line?: number } | null = null;
  #seq = 0;
  #partial = '';
  #logBytes = 0;
  readonly #listeners = new Set<(lines: BuildLine[]) => void>();

  /** The build-file line of step `n` (1-based) printed as `instruction`, when known. */
  constructor(
    private readonly lineOfStep: (n: number, instruction: string) => number | undefined
  ) {}

  listen(listener: (lines: BuildLine[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Adds a line Berth itself prints (the start, a cancellation). */
  note(kind: BuildLine['kind'], text: string): void {
    this.#emit([this.#line(kind, text)]);
  }

  push(messages: unknown[]): void {
    const out: BuildLine[] = [];
    for (const raw of messages) {
      const m = (raw ?? {}) as BuildMessage;
      if (m.aux?.ID) this.imageId = m.aux.ID;
      if (typeof m.stream === 'string') out.push(...this.#stream(m.stream));
      if (typeof m.status === 'string' && m.progress === undefined)
        out.push(this.#line('status', m.id ? `${m.id}: ${m.status}` : m.status));
      const error = m.errorDetail?.message ?? m.error;
      if (typeof error === 'string') {
        out.push(...this.#flushPartial());
        this.error = error.trim();
        out.push(this.#line('error', this.error));
      }
    }
    this.#emit(out);
  }

  /** The stream ended: a last line without a newline is printed. */
  end(): void {
    this.#emit(this.#flushPartial());
  }

  #stream(text: string): BuildLine[] {
    const parts = (this.#partial + text).split('\n');
    this.#partial = parts.pop() ?? '';
    if (this.#partial.length > LINE_MAX) {
      parts.push(this.#partial.slice(0, LINE_MAX));
      this.#partial = '';
    }
    return parts.map((p) => this.#parseLine(p.replace(/\r$/, '')));
  }

  #flushPartial(): BuildLine[] {
    if (!this.#partial) return [];
    const line = this.#parseLine(this.#partial);
    this.#partial = '';
    return [line];
  }

  #parseLine(text: string): BuildLine {
    const step = STEP.exec(text);
    if (step) {
      const n = Number(step[1]);
      const line = this.lineOfStep(n, step[3]!);
      this.step = { n, total: Number(step[2]), text, line };
      return { ...this.#line('step', text), step: n, ...(line ? { line } : {}) };
    }
    const built = BUILT.exec(text.trim());
    if (built && !this.imageId) this.imageId = built[1]!;
    return this.#line('output', text);
  }

  #line(kind: BuildLine['kind'], text: string): BuildLine {
    return {
      seq: this.#seq++,
      kind,
      text: text.length > LINE_MAX ? text.slice(0, LINE_MAX) : text
    };
  }

  #emit(lines: BuildLine[]): void {
    if (!lines.length) return;
    for (const line of lines) {
      this.ring.push(line);
      this.#keep(line.text);
    }
    if (this.ring.length > RING_LINES) this.ring.splice(0, this.ring.length - RING_LINES);
    for (const listener of this.#listeners) listener(lines);
  }

  #keep(text: string): void {
    if (this.logTruncated) return;
    const bytes = Buffer.byteLength(text) + 1;
    if (this.#logBytes + bytes > BUILD_LOG_MAX_BYTES) {
      this.logTruncated = true;
      this.log += `[log truncated at ${BUILD_LOG_MAX_BYTES / 1024 / 1024} MiB]\n`;
      return;
    }
    this.#logBytes += bytes;
    this.log += text + '\n';
  }
}
