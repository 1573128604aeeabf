import { readFileSync } from 'node:fs';
import type { BerthConfig } from '../config/config.schema';
import { DomainError } from '../errors';
import { EngineClient, type EngineCheck, type EngineTarget } from './engine.client';

export const LOCAL_ENGINE = 'local';

export type EngineConfig = BerthConfig['engines'][number];

export type EngineSource = 'local' | 'config' | 'console';

export interface EngineSummary extends EngineCheck {
  name: string;
  source: EngineSource;
  /** Where it is, without credentials: the socket path or host:port. */
  address: string;
  tls: boolean;
}

interface Entry {
  /** Where it comes from: the local socket, berth.yaml's `engines:`, or Settings → Engines. */
  source: EngineSource;
  client: EngineClient | null;
  address: string;
  tls: boolean;
  /** Why the entry could not be built (unreadable certificate file …). */
  problem?: string;
}

/**
 * The engines Berth manages: the local one (its socket, or DOCKER_HOST) and the remote ones
 * under `engines:` in berth.yaml, reached over TLS with client certificates read from the
 * files named there. Key material stays inside the clients: never logged, never returned.
 */
export class EngineRegistry {
  #entries = new Map<string, Entry>();
  /** The console's engines, kept to rebuild after a reload; the file's win a name clash. */
  #added = new Map<string, EngineConfig>();

  constructor(local: EngineTarget | EngineClient, configured: readonly EngineConfig[] = []) {
    const client = local instanceof EngineClient ? local : new EngineClient(local);
    this.#entries.set(LOCAL_ENGINE, {
      source: 'local',
      client,
      address: addressOf(client.target),
      tls: false
    });
    this.apply(configured);
  }

  get local(): EngineClient {
    return this.get(LOCAL_ENGINE);
  }

  names(): string[] {
    return [...this.#entries.keys()];
  }

  get(name: string = LOCAL_ENGINE): EngineClient {
    const entry = this.#entries.get(name);
    if (!entry) throw new DomainError('NOT_FOUND', `no engine named ${name}`);
    if (!entry.client)
      throw new DomainError(
        'ENGINE_UNAVAILABLE',
        `engine ${name}: ${entry.problem ?? 'not usable'}`
      );
    return entry.client;
  }

  /** Where the engine named `name` comes from, or undefined when there is none. */
  sourceOf(name: string): EngineSource | undefined {
    return this.#entries.get(name)?.source;
  }

  /** Rebuilds the configured engines (after a reload); the local one stays. */
  apply(configured: readonly EngineConfig[]): void {
    for (const name of this.names()) if (name !== LOCAL_ENGINE) this.#entries.delete(name);
    for (const engine of configured) {
      if (this.#entries.has(engine.name)) continue; // the schema refuses duplicates and `local`
      this.#entries.set(engine.name, buildEntry(engine, 'config'));
    }
    for (const engine of this.#added.values()) this.#addEntry(engine);
  }

  /** Adds an engine from Settings → Engines at once; a file's engine of that name wins. */
  add(engine: EngineConfig): void {
    this.#added.set(engine.name, engine);
    this.#addEntry(engine);
  }

  /** Drops an engine added in the console (the file's and the local one stay). */
  remove(name: string): void {
    this.#added.delete(name);
    if (this.#entries.get(name)?.source === 'console') this.#entries.delete(name);
  }

  #addEntry(engine: EngineConfig): void {
    if (!this.#entries.has(engine.name))
      this.#entries.set(engine.name, buildEntry(engine, 'console'));
  }

  /** Every engine checked at once: status, pinned API version, latency. */
  async health(): Promise<EngineSummary[]> {
    return Promise.all(
      [...this.#entries].map(async ([name, entry]) => {
        const check: EngineCheck = entry.client
          ? await entry.client.check()
          : { status: 'error', detail: entry.problem ?? 'not usable' };
        return { name, source: entry.source, address: entry.address, tls: entry.tls, ...check };
      })
    );
  }
}

function buildEntry(engine: EngineConfig, source: EngineSource): Entry {
  const target = remoteTarget(engine);
  const address = `${target.host}:${target.port}`;
  const tls = engine.tls !== undefined;
  try {
    const files = engine.tls && {
      ca: engine.tls.ca ? readFileSync(engine.tls.ca) : undefined,
      cert: readFileSync(engine.tls.cert),
      key: readFileSync(engine.tls.key)
    };
    const client = new EngineClient(files ? { ...target, tls: files } : target);
    return { source, client, address, tls };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const problem = `cannot read its TLS files (${code ?? 'error'}); the server must be able to read them`;
    return { source, client: null, address, tls, problem };
  }
}

/** `host` as tcp://host:port or a bare host name with `port` (2376 with TLS, else 2375). */
function remoteTarget(engine: EngineConfig): { host: string; port: number } {
  const fallback = engine.tls ? 2376 : 2375;
  if (engine.host.includes('://')) {
    const url = new URL(engine.host.replace(/^tcp:/, 'http:'));
    return { host: url.hostname, port: Number(url.port || engine.port || fallback) };
  }
  return { host: engine.host, port: engine.port ?? fallback };
}

function addressOf(target: EngineTarget): string {
  return 'socketPath' in target ? `unix://${target.socketPath}` : `${target.host}:${target.port}`;
}
