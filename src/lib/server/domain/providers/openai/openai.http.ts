import type { ProviderSettings } from '../provider.registry';

/** Longest wait that a Retry-After may ask for; a longer one fails the request at once. */
const MAX_RETRY_WAIT_MS = 60_000;
const BACKOFF_BASE_MS = 500;
const DETAIL_MAX = 300;

/** The turn was cancelled (or Berth stops): not an error of the provider. */
export class RequestCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/**
 * One HTTP exchange with an OpenAI-compatible endpoint, for a provider named `name`. Errors
 * are worded for the turn's record: "provider x answered 401: invalid API key", "provider x
 * timed out after 60000 ms", "provider x could not reach http://…: connection refused".
 */
export class OpenAiHttp {
  constructor(
    readonly name: string,
    private readonly settings: ProviderSettings,
    /** Waits between tries; the tests' clock is the real one, the seam is for cancellation. */
    private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void> = abortableSleep
  ) {}

  url(path: string): string {
    return `${this.settings.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  /**
   * POSTs `body` and yields the answer's body chunks. The time-out runs until the answer
   * starts and then between two chunks, so a long answer that keeps streaming is not cut.
   * 429 and 5xx are tried again (at most `maxAttempts` tries) after Retry-After, else after
   * an exponential backoff with jitter; only before any of the answer was read.
   */
  async *post(path: string, body: unknown, signal: AbortSignal): AsyncGenerator<Uint8Array> {
    const { maxAttempts } = this.settings;
    for (let attempt = 1; ; attempt++) {
      const watch = new Watchdog(this.settings.timeoutMs, signal);
      let res: Response;
      try {
        res = await fetch(this.url(path), {
          method: 'POST',
          headers: this.#headers({
            'content-type': 'application/json',
            accept: 'text/event-stream'
          }),
          body: JSON.stringify(body),
          signal: watch.signal
        });
      } catch (err) {
        watch.stop();
        throw this.#failure(err, watch, path);
      }
      if (res.ok && res.body) {
        try {
          for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
            watch.rearm();
            yield chunk;
          }
          return;
        } catch (err) {
          throw this.#failure(err, watch, path);
        } finally {
          watch.stop();
        }
      }
      watch.stop();
      const detail = await errorDetail(res);
      const retryable = res.status === 429 || res.status >= 500;
      if (!retryable || attempt >= maxAttempts) {
        const tries = retryable && attempt > 1 ? ` (after ${attempt} tries)` : '';
        throw new Error(`provider ${this.name} answered ${res.status}: ${detail}${tries}`);
      }
      const asked = retryAfterMs(res.headers.get('retry-after'));
      if (asked !== null && asked > MAX_RETRY_WAIT_MS)
        throw new Error(
          `provider ${this.name} answered ${res.status}: ${detail} (it asks to retry after ${Math.ceil(asked / 1000)} s)`
        );
      const backoff = BACKOFF_BASE_MS * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
      try {
        await this.sleep(asked ?? backoff, signal);
      } catch {
        throw new RequestCancelled();
      }
    }
  }

  /** GET with the same headers and time-out; the parsed JSON. */
  async getJson(path: string, signal: AbortSignal): Promise<unknown> {
    const watch = new Watchdog(this.settings.timeoutMs, signal);
    try {
      const res = await fetch(this.url(path), {
        headers: this.#headers({ accept: 'application/json' }),
        signal: watch.signal
      });
      if (!res.ok)
        throw new Error(`provider ${this.name} answered ${res.status}: ${await errorDetail(res)}`);
      return await res.json();
    } catch (err) {
      if (err instanceof Error && err.message.startsWith(`provider ${this.name} `)) throw err;
      throw this.#failure(err, watch, path);
    } finally {
      watch.stop();
    }
  }

  #headers(base: Record<string, string>): Record<string, string> {
    const headers = { ...this.settings.headers, ...base };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    return headers;
  }

  #failure(err: unknown, watch: Watchdog, path: string): Error {
    if (watch.timedOut)
      return new Error(`provider ${this.name} timed out after ${this.settings.timeoutMs} ms`);
    if (watch.cancelled) return new RequestCancelled();
    return new Error(
      `provider ${this.name} could not reach ${this.url(path)}: ${networkReason(err)}`
    );
  }
}

/**
 * Aborts a request after `ms` without progress, or when the turn's signal aborts; tells the
 * two apart for the error's words.
 */
class Watchdog {
  readonly #controller = new AbortController();
  readonly signal: AbortSignal;
  #timer: NodeJS.Timeout | undefined;
  timedOut = false;

  constructor(
    private readonly ms: number,
    private readonly outer: AbortSignal
  ) {
    this.signal = AbortSignal.any([outer, this.#controller.signal]);
    this.rearm();
  }

  get cancelled(): boolean {
    return this.outer.aborted;
  }

  rearm(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.timedOut = true;
      this.#controller.abort();
    }, this.ms);
  }

  stop(): void {
    clearTimeout(this.#timer);
  }
}

/** Retry-After as seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** What the endpoint said went wrong, in a line: its `error.message`, else a plain reason. */
async function errorDetail(res: Response): Promise<string> {
  if (res.status === 401) return 'invalid API key';
  let text = '';
  try {
    text = await res.text();
  } catch {
    // the body is lost with the connection: the status says enough
  }
  let detail: string;
  try {
    const parsed = JSON.parse(text) as {
      error?: { message?: unknown } | string;
      message?: unknown;
    };
    const message =
      typeof parsed.error === 'string'
        ? parsed.error
        : (parsed.error?.message ?? parsed.message ?? '');
    detail = typeof message === 'string' ? message : '';
  } catch {
    detail = text;
  }
  detail = detail.replace(/\s+/g, ' ').trim();
  if (!detail) detail = res.statusText || 'no reason given';
  return detail.length > DETAIL_MAX ? `${detail.slice(0, DETAIL_MAX)}…` : detail;
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified'
};

/**
 * undici hides the reason in `cause` (sometimes an AggregateError of one per address): its
 * code in words, else the innermost message ("bad port" rather than "fetch failed").
 */
function networkReason(err: unknown): string {
  let cause: unknown = err;
  let reason = err instanceof Error ? err.message : String(err);
  for (let depth = 0; depth < 4 && cause; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return REASONS[code] ?? code;
    if (cause instanceof Error && cause.message) reason = cause.message;
    const inner = (cause as { errors?: unknown[] }).errors?.[0];
    cause = inner ?? (cause as { cause?: unknown }).cause;
  }
  return reason;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    if (signal.aborted) return fail(new RequestCancelled());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      done();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      fail(new RequestCancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
