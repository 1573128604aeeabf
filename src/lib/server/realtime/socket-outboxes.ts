import type { Socket } from 'socket.io';
import { packLogLines, type JoinOptions, type LogLine } from '$lib/contracts/realtime';
import type { SourceEvents } from './channel-hub';
import type { Backfill } from './channel-hub';
import { LogOutbox } from './log-outbox';

type Event = keyof SourceEvents;
/** Engine events a socket may have waiting before more are dropped for it. */
const EVENT_BACKLOG = 256;

/**
 * The log outboxes of every socket, one per joined `container.logs` channel. A socket is ready
 * for more when engine.io's write buffer is empty: a WebSocket whose peer stops reading keeps
 * its last frame unsent, the buffer fills, and the outbox holds (then drops) instead. The
 * connection's `drain` (after each flush) pumps the socket's outboxes again.
 */
export class LogOutboxes {
  readonly #bySocket = new Map<string, { boxes: Map<string, LogOutbox>; off: () => void }>();

  constructor(private readonly socketOf: (member: string) => Socket | undefined) {}

  open(member: string, channel: string, options: JoinOptions): void {
    if (!channel.startsWith('container.logs:')) return;
    const socket = this.socketOf(member);
    if (!socket) return;
    let entry = this.#bySocket.get(member);
    if (!entry) {
      const boxes = new Map<string, LogOutbox>();
      const pump = () => {
        for (const box of boxes.values()) box.pump();
      };
      socket.conn.on('drain', pump);
      entry = { boxes, off: () => socket.conn.off('drain', pump) };
      this.#bySocket.set(member, entry);
    }
    const sink = {
      ready: () => socket.connected && unsent(socket) === 0,
      lines: (lines: LogLine[]) => socket.emit('container.log', packLogLines(channel, lines)),
      gap: (missed: number | null) => socket.emit('container.log.gap', { channel, missed }),
      ended: (reason: string) => socket.emit('stream.ended', { channel, reason })
    };
    entry.boxes.set(channel, new LogOutbox(sink, options));
  }

  close(member: string, channel: string): void {
    const entry = this.#bySocket.get(member);
    if (!entry?.boxes.delete(channel) || entry.boxes.size > 0) return;
    entry.off();
    this.#bySocket.delete(member);
  }

  backfill(member: string, channel: string, pending: Promise<Backfill>): void {
    this.#bySocket.get(member)?.boxes.get(channel)?.hold(pending);
  }

  /**
   * Queues a log event for each member with an outbox on this channel; false for events that
   * are not queued (they go to the room as they are).
   */
  deliver<E extends Event>(
    channel: string,
    event: E,
    args: Parameters<SourceEvents[E]>,
    members: Iterable<string> | undefined
  ): boolean {
    if (!channel.startsWith('container.logs:')) return false;
    const payload = args[0] as Parameters<
      SourceEvents['container.log' | 'container.log.gap' | 'stream.ended']
    >[0];
    for (const member of members ?? []) {
      const box = this.#bySocket.get(member)?.boxes.get(channel);
      if (!box) continue;
      if ('lines' in payload) box.offer(payload.lines);
      else if ('missed' in payload) box.gap(payload.missed);
      else box.ended(payload.reason);
    }
    return true;
  }

  /**
   * Sends a stats sample or an engine event to each member that is keeping up, and skips those
   * that are not: a stats sample is replaced by the next one (it carries totals), and an engine
   * event waits in engine.io's buffer only up to EVENT_BACKLOG unsent packets. False for other
   * events.
   */
  deliverSampled<E extends Event>(
    event: E,
    args: Parameters<SourceEvents[E]>,
    members: Iterable<string> | undefined
  ): boolean {
    const backlog = event === 'container.stats' ? 1 : event === 'engine.event' ? EVENT_BACKLOG : 0;
    if (backlog === 0) return false;
    for (const member of members ?? []) {
      const socket = this.socketOf(member);
      if (socket?.connected && unsent(socket) < backlog) socket.emit(event, ...args);
    }
    return true;
  }

  /** Lines held for slow sockets, over all outboxes (for tests and metrics). */
  get held(): number {
    let n = 0;
    for (const { boxes } of this.#bySocket.values())
      for (const box of boxes.values()) n += box.held;
    return n;
  }
}

/** Packets engine.io has not handed to the transport yet (typed private, read-only here). */
export function unsent(socket: Socket): number {
  return (socket.conn as unknown as { writeBuffer: unknown[] }).writeBuffer.length;
}
