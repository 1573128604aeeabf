import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import Modem, { type DialOptions } from 'docker-modem';
import type { Check } from '$lib/contracts/health';
import { DomainError } from '../errors';
import { isAllowedEndpoint } from './engine.endpoints';
import { connectionError, engineError } from './engine.errors';

/** The API range Berth speaks (spec doc 2); the engine's own version is pinned within it. */
export const MIN_API = '1.39';
export const MAX_API = '1.46';

export interface EngineTls {
  /** Absent: the system's trusted CAs. */
  ca?: Buffer;
  cert: Buffer;
  key: Buffer;
}
export type EngineTarget = { socketPath: string } | { host: string; port: number; tls?: EngineTls };

/** DOCKER_HOST forms: unix:///path, tcp://host:port; default the local socket. */
export function parseDockerHost(value: string | undefined): EngineTarget {
  if (!value) return { socketPath: '/var/run/docker.sock' };
  if (value.startsWith('unix://')) return { socketPath: value.slice('unix://'.length) };
  const url = new URL(value.replace(/^tcp:/, 'http:'));
  return { host: url.hostname, port: Number(url.port || 2375) };
}

export function compareApi(a: string, b: string): number {
  const [am = 0, an = 0] = a.split('.').map(Number);
  const [bm = 0, bn = 0] = b.split('.').map(Number);
  return am - bm || an - bn;
}

/** The version to pin: the engine's own, capped at ours; null when the engine is too old. */
export function negotiateApi(engineVersion: string): string | null {
  if (!/^\d+\.\d+$/.test(engineVersion) || compareApi(engineVersion, MIN_API) < 0) return null;
  return compareApi(engineVersion, MAX_API) > 0 ? MAX_API : engineVersion;
}

export type EngineCheck = Check & { apiVersion?: string };

export interface EngineCall {
  method: 'GET' | 'POST' | 'DELETE';
  /** Unversioned path without a query; must be one of the spec's endpoints. */
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  /** What the call is about, in words, for error messages: "container web". */
  what: string;
  headers?: Record<string, string>;
  /** A tar stream sent as the body (build); an empty buffer sends the headers at once (attach). */
  file?: NodeJS.ReadableStream | Buffer;
  timeoutMs?: number;
}

const SUCCESS = { 200: true, 201: true, 204: true } as const;
const TIMEOUT_MS = 60_000;

/**
 * One engine, reached through docker-modem (dockerode's transport, without dockerode's
 * wrappers and the gRPC stack they load, which Berth never calls): the connection, TLS and
 * hijacking are its; the version negotiation it lacks, the endpoint allow-list and the
 * meaning of answers are ours. Every request goes to `/v<pinned>/…`.
 */
export class EngineClient {
  #apiVersion: string | null = null;
  readonly #modem: Modem & { version?: string };

  constructor(
    readonly target: EngineTarget,
    private readonly timeoutMs = 2_000
  ) {
    this.#modem = new Modem(
      'socketPath' in target
        ? { socketPath: target.socketPath }
        : {
            host: target.host,
            port: target.port,
            ...(target.tls
              ? { protocol: 'https', ...withoutUndefined(target.tls) }
              : { protocol: 'http' })
          }
    );
  }

  get apiVersion(): string | null {
    return this.#apiVersion;
  }

  /** Pings `/_ping` (unversioned) and pins the API version from its `Api-Version` header. */
  async check(): Promise<EngineCheck> {
    const started = performance.now();
    try {
      const res = await this.#dial<IncomingMessage>(
        { path: '/_ping', method: 'GET', isStream: true, statusCodes: { 200: true } },
        this.timeoutMs,
        false
      );
      res.resume();
      const latencyMs = Math.round(performance.now() - started);
      const engineVersion = String(res.headers['api-version'] ?? '');
      const pinned = negotiateApi(engineVersion);
      if (!pinned)
        return {
          status: 'error',
          detail: `engine API ${engineVersion || '(none)'} is outside ${MIN_API}–${MAX_API}: upgrade the engine`,
          latencyMs
        };
      this.#apiVersion = pinned;
      return { status: 'ok', apiVersion: pinned, latencyMs };
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status) return { status: 'error', detail: `engine answered ${status}` };
      return { status: 'unavailable', detail: connectionError(err, this.timeoutMs) };
    }
  }

  /** A JSON call; 304 (already in that state) is a success with `changed: false`. */
  async call<T = unknown>(call: EngineCall): Promise<{ changed: boolean; body: T }> {
    try {
      const body = await this.#send<T>(call, { isStream: false });
      return { changed: true, body };
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 304)
        return { changed: false, body: undefined as T };
      throw this.#error(err, call);
    }
  }

  /** A streamed answer (logs, stats, events, pull and build progress), raw from the engine. */
  async stream(call: EngineCall): Promise<IncomingMessage> {
    try {
      return await this.#send<IncomingMessage>(call, { isStream: true });
    } catch (err) {
      throw this.#error(err, call);
    }
  }

  /** A hijacked duplex (interactive exec): stdin written to it, the output read from it. */
  async hijack(call: EngineCall): Promise<Duplex> {
    try {
      return await this.#send<Duplex>(call, { isStream: true, hijack: true, openStdin: true });
    } catch (err) {
      throw this.#error(err, call);
    }
  }

  async #send<T>(call: EngineCall, mode: Partial<DialOptions>): Promise<T> {
    if (!isAllowedEndpoint(call.method, call.path))
      throw new DomainError(
        'INVALID',
        `${call.method} ${call.path} is not an engine operation Berth offers`
      );
    if (!this.#apiVersion) {
      const check = await this.check();
      if (!this.#apiVersion)
        throw new DomainError('ENGINE_UNAVAILABLE', check.detail ?? 'the engine is not available');
    }
    const streamed = mode.isStream === true;
    return this.#dial<T>(
      {
        path: call.query ? `${call.path}?` : call.path,
        method: call.method,
        options: { _query: definedOnly(call.query ?? {}), _body: call.body ?? {} },
        allowEmpty: call.body !== undefined,
        headers: call.headers ? { ...call.headers } : undefined,
        file: call.file,
        statusCodes: { ...SUCCESS, 304: 'not modified' },
        ...mode
      },
      // A stream's life is the caller's; only its first answer is timed.
      streamed ? undefined : (call.timeoutMs ?? TIMEOUT_MS),
      true
    );
  }

  #dial<T>(options: DialOptions, timeoutMs: number | undefined, versioned: boolean) {
    const modem = this.#modem;
    return new Promise<T>((resolve, reject) => {
      modem.version = versioned ? `v${this.#apiVersion}` : undefined;
      modem.dial(
        { ...options, ...(timeoutMs ? { abortSignal: AbortSignal.timeout(timeoutMs) } : {}) },
        (err, result) => (err ? reject(err) : resolve(result as T))
      );
    });
  }

  #error(err: unknown, call: EngineCall): DomainError {
    if (err instanceof DomainError) return err;
    const { statusCode, json, message } = err as Error & { statusCode?: number; json?: unknown };
    // A streamed call's error body reaches us only inside the modem's message text.
    if (statusCode)
      return engineError(
        statusCode,
        json ?? message.replace(/^\(HTTP code \d+\) [^-]*- /, ''),
        call.what
      );
    return new DomainError(
      'ENGINE_UNAVAILABLE',
      connectionError(err, call.timeoutMs ?? TIMEOUT_MS)
    );
  }
}

/** querystring would send an absent option as `key=`, which the engine reads as false or 0. */
function definedOnly(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
