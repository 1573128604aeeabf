import type { Readable } from 'node:stream';
import type { Socket } from 'socket.io';
import { ImagePull, type ExecAck, type PullLayer } from '$lib/contracts/exec';
import { roleAtLeast } from '$lib/contracts/roles';
import type { EngineActor } from '../domain/engine/engine-access';
import type { ImageService } from '../domain/engine/image.service';
import { JsonLines } from '../engine/json-lines';
import type { Logger } from '../logger';
import { describeFailure } from './realtime-errors';

/** Pulls one socket may run at once. */
const MAX_PULLS = 4;
/** Progress goes out at most this often per pull: the engine reports every few KiB. */
const PROGRESS_MS = 100;

interface PullMessage {
  id?: string;
  status?: string;
  error?: string;
  progressDetail?: { current?: number; total?: number };
}

/**
 * Image pulls started by one socket, their layer progress sent to it alone; a pull still running
 * when the socket disconnects is left to finish in the engine (the image lands all the same),
 * only its stream is closed.
 */
export class SocketPulls {
  readonly #running = new Set<Readable>();

  constructor(
    private readonly socket: Socket,
    private readonly images: ImageService,
    private readonly actorOf: () => EngineActor | null,
    private readonly logger: Logger
  ) {}

  async pull(raw: unknown, ack: ExecAck): Promise<void> {
    const input = ImagePull.safeParse(raw);
    if (!input.success) return ack({ ok: false, error: 'invalid pull request' });
    const actor = this.actorOf();
    if (!actor) return ack({ ok: false, error: 'the session ended' });
    if (!roleAtLeast(actor.role, 'operator'))
      return ack({ ok: false, error: 'Needs the operator role to pull images' });
    if (this.#running.size >= MAX_PULLS)
      return ack({ ok: false, error: `at most ${MAX_PULLS} pulls at once per tab` });
    const { engine, ref, tag } = input.data;
    const name = `${ref}:${tag}`;
    ack({ ok: true });
    let stream: Readable;
    try {
      stream = await this.images.pull(actor, { engine, fromImage: ref, tag });
    } catch (err) {
      return this.#done(name, describeFailure(err, this.logger, 'pull'));
    }
    this.#running.add(stream);
    this.#follow(name, tag, stream);
  }

  dispose(): void {
    for (const stream of this.#running) stream.destroy();
    this.#running.clear();
  }

  #follow(ref: string, tag: string, stream: Readable): void {
    const layers = new Map<string, PullLayer>();
    const lines = new JsonLines();
    let error: string | null = null;
    let timer: NodeJS.Timeout | null = null;
    const flush = () => {
      timer = null;
      this.socket.emit('image.pull.progress', { ref, layers: [...layers.values()] });
    };
    const read = (messages: unknown[]) => {
      for (const m of messages as PullMessage[]) {
        if (m.error) error = m.error.trim();
        // "Pulling from" carries the tag as its id; "Digest:" and "Status:" carry none.
        if (!m.id || !m.status || m.id === tag) continue;
        const detail = m.progressDetail ?? {};
        const before = layers.get(m.id);
        layers.set(m.id, {
          id: m.id,
          status: m.status,
          // A finished layer keeps its last byte counts.
          current: detail.current ?? before?.current,
          total: detail.total ?? before?.total
        });
      }
      timer ??= setTimeout(flush, PROGRESS_MS);
    };
    const finish = (failure: string | null) => {
      if (!this.#running.delete(stream)) return;
      if (timer) clearTimeout(timer);
      flush();
      this.#done(ref, failure);
    };
    stream.on('data', (chunk: Buffer) => {
      try {
        read(lines.push(chunk));
      } catch {
        error = 'the engine sent progress Berth could not read';
        stream.destroy();
      }
    });
    stream.once('end', () => {
      try {
        read(lines.end());
      } catch {
        error ??= 'the engine sent progress Berth could not read';
      }
      finish(error ? `pull of ${ref} failed: ${error}` : null);
    });
    stream.once('error', (err) => finish(describeFailure(err, this.logger, 'pull')));
    stream.once('close', () => finish(error ?? 'the engine dropped the pull'));
  }

  #done(ref: string, error: string | null): void {
    this.socket.emit('image.pull.done', error ? { ref, ok: false, error } : { ref, ok: true });
  }
}
