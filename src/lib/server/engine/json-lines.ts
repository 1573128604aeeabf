/** Splits a stream of JSON lines whose chunks do not follow the lines; parses each line. */
export class JsonLines {
  #pending = '';
  readonly #decoder = new TextDecoder();

  constructor(private readonly maxLineBytes = 1024 * 1024) {}

  push(chunk: Buffer): unknown[] {
    this.#pending += this.#decoder.decode(chunk, { stream: true });
    const out: unknown[] = [];
    let nl: number;
    while ((nl = this.#pending.indexOf('\n')) >= 0) {
      const line = this.#pending.slice(0, nl).trim();
      this.#pending = this.#pending.slice(nl + 1);
      if (line) out.push(JSON.parse(line));
    }
    if (this.#pending.length > this.maxLineBytes)
      throw new Error('a JSON line from the engine is too long');
    return out;
  }

  end(): unknown[] {
    const rest = (this.#pending + this.#decoder.decode()).trim();
    this.#pending = '';
    return rest ? [JSON.parse(rest)] : [];
  }
}
