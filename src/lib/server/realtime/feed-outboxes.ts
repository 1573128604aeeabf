import type { Socket } from 'socket.io';
import type { ServerToClientEvents } from '$lib/contracts/realtime';
import type { SourceEvents } from './channel-hub';
import { unsent } from './socket-outboxes';

type Event = keyof SourceEvents;

/** Packets a socket may have waiting before deltas are held back and joined. */
const DELTA_BACKLOG = 32;
/** Held text per turn and socket; past it pieces are dropped (the reply message has them all). */
const DELTA_HELD_MAX = 256 * 1024;
/** Timeline rows a socket may have waiting before more are dropped (and counted) for it. */
const ITEM_BACKLOG = 256;

interface Held {
  channel: string;
  turnId: string;
  text: string;
}

interface Member {
  /** Deltas held back per `channel turnId`, in arrival order. */
  held: Map<string, Held>;
  /** Timeline rows dropped per channel since the last one sent. */
  missed: Map<string, number>;
  off: (() => void) | null;
}

/**
 * What a `session:<id>` or `activity` channel sends, per member, bounded: a socket that reads
 * slowly has its reply deltas joined into one per turn (sent when engine.io's buffer drains, and
 * always before that session's next message or turn change, so the order holds), and its
 * timeline rows dropped past ITEM_BACKLOG, then told how many with `activity.gap`.
 */
export class FeedOutboxes {
  readonly #members = new Map<string, Member>();

  constructor(private readonly socketOf: (member: string) => Socket | undefined) {}

  /** False for events that are not these channels' (they go to the room as they are). */
  deliver<E extends Event>(
    channel: string,
    event: E,
    args: Parameters<SourceEvents[E]>,
    members: Iterable<string> | undefined
  ): boolean {
    if (event === 'activity.item') {
      for (const member of members ?? []) this.#item(member, channel, args);
      return true;
    }
    if (event === 'chat.delta') {
      const { turnId, text } = args[0] as Parameters<ServerToClientEvents['chat.delta']>[0];
      for (const member of members ?? []) this.#delta(member, channel, turnId, text);
      return true;
    }
    if (event === 'chat.message' || event === 'chat.turn') {
      for (const member of members ?? []) {
        this.#flush(member, channel);
        this.socketOf(member)?.emit(event, ...args);
      }
      return true;
    }
    return false;
  }

  close(member: string, channel: string): void {
    const entry = this.#members.get(member);
    if (!entry) return;
    for (const [key, held] of entry.held) if (held.channel === channel) entry.held.delete(key);
    entry.missed.delete(channel);
    if (entry.held.size === 0 && entry.missed.size === 0) {
      entry.off?.();
      this.#members.delete(member);
    }
  }

  /** Delta text held for slow sockets, over all members (for tests and metrics). */
  get held(): number {
    let n = 0;
    for (const { held } of this.#members.values())
      for (const h of held.values()) n += h.text.length;
    return n;
  }

  #item<E extends Event>(member: string, channel: string, args: Parameters<SourceEvents[E]>) {
    const socket = this.socketOf(member);
    if (!socket?.connected) return;
    const entry = this.#members.get(member);
    if (unsent(socket) >= ITEM_BACKLOG) {
      const m = this.#entry(member, socket);
      m.missed.set(channel, (m.missed.get(channel) ?? 0) + 1);
      return;
    }
    const missed = entry?.missed.get(channel);
    if (missed) {
      entry!.missed.delete(channel);
      socket.emit('activity.gap', { channel, missed });
    }
    socket.emit('activity.item', ...(args as Parameters<ServerToClientEvents['activity.item']>));
  }

  #delta(member: string, channel: string, turnId: string, text: string): void {
    const socket = this.socketOf(member);
    if (!socket?.connected) return;
    const key = `${channel} ${turnId}`;
    const held = this.#members.get(member)?.held.get(key);
    if (!held && unsent(socket) < DELTA_BACKLOG) {
      socket.emit('chat.delta', { channel, turnId, text });
      return;
    }
    if (held) {
      if (held.text.length + text.length <= DELTA_HELD_MAX) held.text += text;
    } else this.#entry(member, socket).held.set(key, { channel, turnId, text });
  }

  /** Sends what is held for this member's channel (all its channels without one). */
  #flush(member: string, channel?: string): void {
    const entry = this.#members.get(member);
    const socket = this.socketOf(member);
    if (!entry || !socket) return;
    for (const [key, held] of entry.held) {
      if (channel !== undefined && held.channel !== channel) continue;
      entry.held.delete(key);
      socket.emit('chat.delta', held);
    }
  }

  #entry(member: string, socket: Socket): Member {
    let entry = this.#members.get(member);
    if (!entry) {
      const pump = () => this.#flush(member);
      socket.conn.on('drain', pump);
      entry = { held: new Map(), missed: new Map(), off: () => socket.conn.off('drain', pump) };
      this.#members.set(member, entry);
    }
    return entry;
  }
}
