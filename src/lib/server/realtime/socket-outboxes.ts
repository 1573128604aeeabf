import type { Socket } from 'socket.io';
import type { JoinOptions, LogLine, ServerToClientEvents } from '$lib/contracts/realtime';
import { LogOutbox } from './log-outbox';

type Event = keyof ServerToClientEvents;

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
      lines: (lines: LogLine[]) => socket.emit('container.log', { channel, lines }),
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

  /**
   * Queues a log event for each member with an outbox on this channel; false for events that
   * are not queued (they go to the room as they are).
   */
  deliver<E extends Event>(
    channel: string,
    event: E,
    args: Parameters<ServerToClientEvents[E]>,
    members: Iterable<string> | undefined
  ): boolean {
    if (!channel.startsWith('container.logs:')) return false;
    const payload = args[0] as Parameters<
      ServerToClientEvents['container.log' | 'container.log.gap' | 'stream.ended']
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

  /** Lines held for slow sockets, over all outboxes (for tests and metrics). */
  get held(): number {
    let n = 0;
    for (const { boxes } of this.#bySocket.values())
      for (const box of boxes.values()) n += box.held;
    return n;
  }
}

/** Packets engine.io has not handed to the transport yet (typed private, read-only here). */
function unsent(socket: Socket): number {
  return (socket.conn as unknown as { writeBuffer: unknown[] }).writeBuffer.length;
}
