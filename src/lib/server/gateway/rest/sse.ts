import type { ServerResponse } from 'node:http';
import { API_HEADERS } from '../../http/security-headers';

const KEEPALIVE_MS = 15_000;

/**
 * A `text/event-stream` answer: `event: <name>` + one `data:` line of JSON per event. A comment
 * line every 15 s keeps proxies from closing a quiet stream (a long tool call, a slow model).
 */
export class SseStream {
  readonly #res: ServerResponse;
  readonly #keepalive: NodeJS.Timeout;
  #closed = false;

  constructor(res: ServerResponse) {
    this.#res = res;
    res.writeHead(200, {
      ...API_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no'
    });
    res.flushHeaders();
    this.#keepalive = setInterval(() => this.#write(': keepalive\n\n'), KEEPALIVE_MS).unref();
    res.once('close', () => this.close());
  }

  get closed(): boolean {
    return this.#closed;
  }

  send(event: string, data: unknown): void {
    // JSON.stringify never emits a raw newline, so one data line always suffices.
    this.#write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Ends the stream (idempotent; also runs when the client goes away). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepalive);
    if (!this.#res.writableEnded) this.#res.end();
  }

  #write(text: string): void {
    if (!this.#closed) this.#res.write(text);
  }
}
