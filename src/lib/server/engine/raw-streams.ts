import { request, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as tlsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { DomainError } from '../errors';
import { connectionError } from './engine.errors';
import type { EngineTarget } from './engine.client';
import {
  unixSince,
  type EngineStreams,
  type EventStreamOptions,
  type LogStreamOptions
} from './engine-streams';

/**
 * EngineStreams over node:http (or node:https with the engine's client certificate) on the
 * pinned, versioned path: the long-lived streams skip docker-modem's per-request work, and their
 * backpressure is the socket's own.
 */
export class RawEngineStreams implements EngineStreams {
  constructor(
    private readonly target: EngineTarget,
    /** The pinned API version, e.g. `1.41`. */
    private readonly apiVersion: () => Promise<string>
  ) {}

  openLogs(id: string, o: LogStreamOptions): Promise<Readable> {
    const query = new URLSearchParams({
      stdout: '1',
      stderr: '1',
      follow: o.follow ? '1' : '0',
      timestamps: o.timestamps ? '1' : '0'
    });
    if (o.since !== undefined) query.set('since', unixSince(o.since));
    if (o.tail !== undefined) query.set('tail', String(o.tail));
    return this.#open(`/containers/${encodeURIComponent(id)}/logs?${query}`, `container ${id}`);
  }

  openStats(id: string): Promise<Readable> {
    return this.#open(`/containers/${encodeURIComponent(id)}/stats?stream=1`, `container ${id}`);
  }

  openEvents(o: EventStreamOptions = {}): Promise<Readable> {
    const query = new URLSearchParams();
    if (o.since !== undefined) query.set('since', String(o.since));
    if (o.filters) query.set('filters', JSON.stringify(o.filters));
    return this.#open(`/events?${query}`, 'events');
  }

  async #open(path: string, what: string): Promise<Readable> {
    const version = await this.apiVersion();
    return new Promise((resolve, reject) => {
      const options = { ...connection(this.target), path: `/v${version}${path}`, method: 'GET' };
      const req = 'tls' in this.target && this.target.tls ? tlsRequest(options) : request(options);
      req.on('response', (res: IncomingMessage) => {
        if (res.statusCode === 200) return resolve(res);
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.length < 16 && chunks.push(c));
        res.on('end', () => reject(engineRefusal(res.statusCode ?? 0, chunks, what)));
        res.on('error', reject);
      });
      req.on('error', (err) =>
        reject(new DomainError('ENGINE_UNAVAILABLE', `${what}: ${connectionError(err, 0)}`))
      );
      req.end();
    });
  }
}

/** Where the request goes: the socket, or host and port with the client certificate for TLS. */
function connection(
  target: EngineTarget
): RequestOptions & { ca?: Buffer; cert?: Buffer; key?: Buffer } {
  if ('socketPath' in target) return { socketPath: target.socketPath };
  const { host, port, tls } = target;
  return tls ? { host, port, ca: tls.ca, cert: tls.cert, key: tls.key } : { host, port };
}

function engineRefusal(status: number, chunks: Buffer[], what: string): DomainError {
  if (status === 404) return new DomainError('NOT_FOUND', `${what} does not exist`);
  return new DomainError('ENGINE_UNAVAILABLE', `${what}: ${engineMessage(chunks) ?? status}`);
}

/** The `message` of the engine's JSON error body, if it sent one. */
function engineMessage(chunks: Buffer[]): string | undefined {
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString()) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : undefined;
  } catch {
    return undefined; // not JSON: the status says enough
  }
}
