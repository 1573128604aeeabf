import { consoleSocket } from '$lib/client/socket';
import {
  unpackLogLines,
  type ChannelName,
  type JoinOptions,
  type LogLine,
  type PackedLogLines
} from '$lib/contracts/realtime';
import type { LogFeed } from './log-viewer.svelte';
import type { LiveStatus } from './live-room.svelte';

/**
 * One container's `container.logs` channel feeding a LogViewer. It remembers the `ts` of the
 * last line and how many lines carried it, and joins again with `{since, seen}` after every
 * reconnect, so the viewer gets each line once and none is lost. Browser only: start() from
 * onMount.
 */
export class ContainerLogChannel {
  status = $state<LiveStatus>('connecting');
  refusal = $state<string | null>(null);
  /** Why the engine stream ended (the container stopped …); null while it runs. */
  endedReason = $state<string | null>(null);

  readonly #channel: ChannelName;
  readonly #source: string;
  readonly #feed: () => LogFeed | undefined;
  #lastTs: string | null = null;
  #seen = 0;

  constructor(engine: string, id: string, source: string, feed: () => LogFeed | undefined) {
    this.#channel = `container.logs:${engine}:${id}`;
    this.#source = source;
    this.#feed = feed;
  }

  /** Resume point for a join: after the last line held, else the default tail. */
  joinOptions(): JoinOptions {
    return this.#lastTs ? { since: this.#lastTs, seen: this.#seen } : {};
  }

  /** Records the resume point; exported for its test. */
  track(lines: readonly LogLine[]): void {
    for (const l of lines) {
      if (!l.ts) continue;
      if (l.ts === this.#lastTs) this.#seen += 1;
      else {
        this.#lastTs = l.ts;
        this.#seen = 1;
      }
    }
  }

  start(): () => void {
    const socket = consoleSocket();
    const mine = (channel: string) => channel === this.#channel;
    const log = (batch: PackedLogLines) => {
      if (!mine(batch.channel)) return;
      const lines = unpackLogLines(batch);
      this.track(lines);
      this.#feed()?.push(this.#source, lines);
    };
    const gap = ({ channel, missed }: { channel: string; missed: number | null }) => {
      if (mine(channel)) this.#feed()?.gap(this.#source, missed);
    };
    const ended = ({ channel, reason }: { channel: string; reason: string }) => {
      if (!mine(channel)) return;
      this.endedReason = reason;
      this.#feed()?.ended(this.#source, reason);
    };
    const join = () => {
      this.status = 'connecting';
      this.endedReason = null;
      socket.emit('room.join', this.#channel, this.joinOptions(), (result) => {
        this.status = result.ok ? 'live' : 'refused';
        this.refusal = result.ok ? null : result.error;
      });
    };
    const offline = () => {
      this.status = 'offline';
    };
    socket.on('container.log', log);
    socket.on('container.log.gap', gap);
    socket.on('stream.ended', ended);
    socket.on('connect', join);
    socket.on('disconnect', offline);
    if (socket.connected) join();
    this.#rejoin = () => socket.emit('room.leave', this.#channel, join);
    return () => {
      this.#rejoin = null;
      socket.off('container.log', log);
      socket.off('container.log.gap', gap);
      socket.off('stream.ended', ended);
      socket.off('connect', join);
      socket.off('disconnect', offline);
      if (socket.connected) socket.emit('room.leave', this.#channel, () => undefined);
    };
  }

  #rejoin: (() => void) | null = null;

  /** After the stream ended (the container stopped), follow it again from the last line held. */
  follow(): void {
    this.#rejoin?.();
  }
}
