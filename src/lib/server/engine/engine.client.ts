import { request } from 'node:http';
import type { Check } from '$lib/contracts/health';
import { DomainError } from '../errors';

/** The API range Berth speaks (spec doc 2); the engine's own version is pinned within it. */
export const MIN_API = '1.39';
export const MAX_API = '1.46';

export type EngineTarget = { socketPath: string } | { host: string; port: number };

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
  if (compareApi(engineVersion, MIN_API) < 0) return null;
  return compareApi(engineVersion, MAX_API) > 0 ? MAX_API : engineVersion;
}

export class EngineClient {
  #apiVersion: string | null = null;

  constructor(
    readonly target: EngineTarget,
    private readonly timeoutMs = 2_000
  ) {}

  get apiVersion(): string | null {
    return this.#apiVersion;
  }

  /** Pings `/_ping`, pins the API version from its `Api-Version` header. */
  async check(): Promise<Check & { apiVersion?: string }> {
    const started = performance.now();
    try {
      const { status, headers } = await this.#get('/_ping');
      const latencyMs = Math.round(performance.now() - started);
      if (status !== 200)
        return { status: 'error', detail: `engine answered ${status}`, latencyMs };
      const engineVersion = String(headers['api-version'] ?? '');
      const pinned = negotiateApi(engineVersion);
      if (!pinned)
        return {
          status: 'error',
          detail: `engine API ${engineVersion} is older than ${MIN_API}`,
          latencyMs
        };
      this.#apiVersion = pinned;
      return { status: 'ok', apiVersion: pinned, latencyMs };
    } catch (err) {
      return { status: 'unavailable', detail: describe(err) };
    }
  }

  /** A JSON GET on the pinned API version; engine errors become ENGINE_UNAVAILABLE. */
  async getJson(path: string): Promise<unknown> {
    if (!this.#apiVersion) await this.check();
    const version = this.#apiVersion;
    if (!version) throw new DomainError('ENGINE_UNAVAILABLE', 'no engine is available');
    const { status, body } = await this.#request(`/v${version}${path}`);
    if (status >= 400) throw new DomainError('ENGINE_UNAVAILABLE', `engine answered ${status}`);
    return JSON.parse(body) as unknown;
  }

  #request(path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(
        { ...this.target, path, method: 'GET', timeout: this.timeoutMs * 5 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') })
          );
        }
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (err) => reject(new DomainError('ENGINE_UNAVAILABLE', describe(err))));
      req.end();
    });
  }

  #get(
    path: string
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
    return new Promise((resolve, reject) => {
      const req = request(
        { ...this.target, path, method: 'GET', timeout: this.timeoutMs },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        }
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end();
    });
  }
}

function describe(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ECONNREFUSED') return 'no engine is listening';
  if (code === 'EACCES') return 'permission denied on the engine socket';
  return err instanceof Error ? err.message : 'unknown error';
}
