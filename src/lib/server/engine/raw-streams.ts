import { request, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { DomainError } from '../errors';
import type { EngineTarget } from './engine.client';
import {
  unixSince,
  type EngineStreams,
  type EventStreamOptions,
  type LogStreamOptions
} from './engine-streams';

/**
 * EngineStreams over plain node:http on the pinned, versioned path. Kept apart from the engine
 * client so the client that grows every operation can take its place.
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
      const req = request({ ...this.target, path: `/v${version}${path}`, method: 'GET' });
      req.on('response', (res: IncomingMessage) => {
        if (res.statusCode === 200) return resolve(res);
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.length < 16 && chunks.push(c));
        res.on('end', () => reject(engineRefusal(res.statusCode ?? 0, chunks, what)));
        res.on('error', reject);
      });
      req.on('error', (err) =>
        reject(new DomainError('ENGINE_UNAVAILABLE', `the engine is not answering: ${err.message}`))
      );
      req.end();
    });
  }
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
