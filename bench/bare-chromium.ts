import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { chromiumPath } from '../scripts/chromium.ts';

/**
 * Chromium driven over a bare DevTools connection that enables no domain: only
 * `Runtime.evaluate` on one page. Playwright enables the Network domain on every page, and
 * Chromium then copies every WebSocket frame the page receives to the driver (for the log
 * bench, all 200,000 lines a second time, through the browser process into the bench's own
 * process). A reader's browser has no driver attached, so the log bench measures without one.
 */
export class BareChromium {
  #next = 1;
  readonly #pending = new Map<number, { done(v: unknown): void; fail(e: Error): void }>();
  readonly #proc: ChildProcess;
  readonly #socket: WebSocket;
  readonly #profile: string;
  #session = '';

  private constructor(proc: ChildProcess, socket: WebSocket, profile: string) {
    this.#proc = proc;
    this.#socket = socket;
    this.#profile = profile;
    socket.on('message', (data: Buffer) => {
      const msg = JSON.parse(data.toString()) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
      };
      const waiter = msg.id === undefined ? undefined : this.#pending.get(msg.id);
      if (!waiter) return;
      this.#pending.delete(msg.id!);
      if (msg.error) waiter.fail(new Error(msg.error.message));
      else waiter.done(msg.result);
    });
  }

  static async launch(args: string[]): Promise<BareChromium> {
    const profile = mkdtempSync(join(tmpdir(), 'berth-bench-chromium-'));
    const proc = spawn(
      chromiumPath,
      [
        '--headless=new',
        '--remote-debugging-port=0',
        `--user-data-dir=${profile}`,
        '--window-size=1280,900',
        ...args,
        'about:blank'
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] }
    );
    process.once('exit', () => proc.kill());
    const endpoint = await new Promise<string>((done, fail) => {
      let seen = '';
      proc.stderr.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const url = /DevTools listening on (ws:\/\/\S+)/.exec(seen)?.[1];
        if (url) done(url);
      });
      proc.once('exit', () => fail(new Error(`chromium exited: ${seen.slice(-500)}`)));
    });
    const socket = new WebSocket(endpoint, { perMessageDeflate: false });
    await new Promise((done, fail) => socket.once('open', done).once('error', fail));
    return new BareChromium(proc, socket, profile);
  }

  send<T = unknown>(method: string, params: object = {}, session?: string): Promise<T> {
    const id = this.#next++;
    const message = { id, method, params, ...(session ? { sessionId: session } : {}) };
    return new Promise<T>((done, fail) => {
      this.#pending.set(id, { done: done, fail });
      this.#socket.send(JSON.stringify(message));
    });
  }

  /** Opens one page (its cookies set first) and attaches to it without enabling a domain. */
  async open(
    url: string,
    cookies: { name: string; value: string; domain: string; path: string }[]
  ): Promise<void> {
    await this.send('Storage.setCookies', { cookies });
    const { targetId } = await this.send<{ targetId: string }>('Target.createTarget', { url });
    const { sessionId } = await this.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true
    });
    this.#session = sessionId;
  }

  navigate(url: string): Promise<unknown> {
    return this.send('Page.navigate', { url }, this.#session);
  }

  /** The value of `expression` (an async function body's result is awaited). */
  async evaluate<T>(expression: string): Promise<T> {
    const { result, exceptionDetails } = await this.send<{
      result: { value: T };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    }>('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, this.#session);
    if (exceptionDetails)
      throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value;
  }

  /** Evaluates `expression` every `everyMs` until it is truthy. */
  async waitFor(expression: string, timeoutMs = 10_000, everyMs = 50): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!(await this.evaluate<boolean>(expression).catch(() => false))) {
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }

  async close(): Promise<void> {
    this.#socket.close();
    this.#proc.kill();
    await new Promise((r) => (this.#proc.exitCode !== null ? r(null) : this.#proc.once('exit', r)));
    rmSync(this.#profile, { recursive: true, force: true });
  }
}
