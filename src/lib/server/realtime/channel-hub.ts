import {
  CHANNEL_NAME_MAX,
  splitChannelName,
  type ChannelSpec,
  type JoinOptions,
  type LogLine,
  type ServerToClientEvents
} from '$lib/contracts/realtime';
import { roleAtLeast, type Role } from '$lib/contracts/roles';

/**
 * What sources publish: the wire's events, with log lines unpacked (each socket's outbox packs
 * the lines it sends, socket-outboxes.ts).
 */
export type SourceEvents = Omit<ServerToClientEvents, 'container.log'> & {
  'container.log': (batch: { channel: string; lines: LogLine[] }) => void;
};

/** Sends one event to every member of the channel instance that published it. */
export type Publish = <E extends keyof SourceEvents>(
  event: E,
  ...args: Parameters<SourceEvents[E]>
) => void;

export type Stop = () => void;

/** Older log lines a member gets before anything sent to it after the promise was handed over. */
export interface Backfill {
  lines: LogLine[];
  /** Lines left out past a cap, or null when the read failed and their number is unknown. */
  missed: number | null;
}

/** A running source that also greets members joining after the first (a log channel's replay). */
export interface SourceHandle {
  stop: Stop;
  /**
   * Sends to the new member alone what it missed; the first member's options went to start.
   * `backfill` queues lines still being read ahead of everything sent to the member after it.
   */
  welcome?(
    options: JoinOptions,
    send: Publish,
    backfill: (pending: Promise<Backfill>) => void
  ): void;
}

export interface ChannelKindDef<P> extends ChannelSpec<P> {
  /**
   * Starts feeding one channel instance when its first member joins (with that member's join
   * options); the returned function is called when its last member leaves. May publish at once:
   * the first member is already in. Throwing refuses the join.
   */
  start(params: P, publish: Publish, options: JoinOptions): Stop | SourceHandle;
  /**
   * A check past the role, for channels that belong to one user (a webhook capture): false
   * refuses the join as if there were no such channel.
   */
  admits?(params: P, userId: string | undefined): boolean;
}

export type RefusalCode = 'unknown' | 'invalid' | 'forbidden' | 'limit' | 'unavailable';
export interface ChannelRefusal {
  code: RefusalCode;
  message: string;
}

/** What the hub needs from the transport: fan-out groups keyed by channel name. */
export interface ChannelTransport {
  enter(member: string, channel: string, options: JoinOptions): void;
  exit(member: string, channel: string): void;
  publish<E extends keyof SourceEvents>(
    channel: string,
    event: E,
    args: Parameters<SourceEvents[E]>
  ): void;
  /** Queues lines still being read for one member, ahead of what is sent to it afterwards. */
  backfill(member: string, channel: string, pending: Promise<Backfill>): void;
  /** To one member of the channel only. */
  send<E extends keyof SourceEvents>(
    member: string,
    channel: string,
    event: E,
    args: Parameters<SourceEvents[E]>
  ): void;
  /** A source's stop threw; the instance is gone either way. */
  onError(err: unknown, channel: string): void;
}

interface Instance {
  kind: string;
  members: Set<string>;
  source: SourceHandle | null;
}

/**
 * Channel membership with one source per channel instance, started on the first join and stopped
 * on the last leave. Transport-free, so the counting is tested without sockets; the socket.io
 * binding (realtime.server.ts) calls it on join, leave, disconnect and role change.
 */
export class ChannelHub {
  readonly #kinds: ReadonlyMap<string, ChannelKindDef<unknown>>;
  readonly #transport: ChannelTransport;
  readonly #perMember: number;
  readonly #instances = new Map<string, Instance>();
  readonly #joined = new Map<string, Set<string>>();

  constructor(
    kinds: Record<string, ChannelKindDef<unknown>>,
    transport: ChannelTransport,
    /** Caps the sources one socket can make the server run. */
    perMember = 32
  ) {
    this.#kinds = new Map(Object.entries(kinds));
    this.#transport = transport;
    this.#perMember = perMember;
  }

  /** Joins, or says why not; joining a channel twice is a no-op. */
  join(
    member: string,
    role: Role,
    name: string,
    options: JoinOptions = {},
    userId?: string
  ): ChannelRefusal | null {
    if (name.length > CHANNEL_NAME_MAX) return refuse('invalid', 'the channel name is too long');
    const { kind, param } = splitChannelName(name);
    const def = this.#kinds.get(kind);
    if (!def) return refuse('unknown', 'unknown room');
    if (!roleAtLeast(role, def.role))
      return refuse('forbidden', `the ${name} room needs the ${def.role} role`);
    const parsed = def.params.safeParse(param);
    if (!parsed.success) return refuse('invalid', `${name} is not a valid ${kind} channel`);
    if (def.admits && !def.admits(parsed.data, userId))
      return refuse('forbidden', `${name} is not open, or not yours`);

    const mine = this.#joined.get(member) ?? new Set<string>();
    if (mine.has(name)) return null;
    if (mine.size >= this.#perMember)
      return refuse('limit', `a connection may join at most ${this.#perMember} channels`);

    let instance = this.#instances.get(name);
    const first = !instance;
    instance ??= { kind, members: new Set(), source: null };
    instance.members.add(member);
    this.#instances.set(name, instance);
    this.#transport.enter(member, name, options);
    if (first) {
      try {
        instance.source = this.#startSource(def, parsed.data, name, options);
      } catch (err) {
        this.#instances.delete(name);
        this.#transport.exit(member, name);
        return refuse('unavailable', `${name} cannot start: ${(err as Error).message}`);
      }
    } else {
      instance.source?.welcome?.(
        options,
        (event, ...args) => this.#transport.send(member, name, event, args),
        (pending) => this.#transport.backfill(member, name, pending)
      );
    }
    mine.add(name);
    this.#joined.set(member, mine);
    return null;
  }

  leave(member: string, name: string): void {
    const mine = this.#joined.get(member);
    if (!mine?.delete(name)) return;
    if (mine.size === 0) this.#joined.delete(member);
    this.#transport.exit(member, name);
    const instance = this.#instances.get(name);
    if (!instance) return;
    instance.members.delete(member);
    if (instance.members.size === 0) this.#stop(name, instance);
  }

  /** A member went away (a socket disconnected): it leaves every channel. */
  leaveAll(member: string): void {
    for (const name of [...(this.#joined.get(member) ?? [])]) this.leave(member, name);
  }

  /** A member's role changed: it leaves the channels the new role may not join. */
  restrict(member: string, role: Role): void {
    for (const name of [...(this.#joined.get(member) ?? [])]) {
      const def = this.#kinds.get(splitChannelName(name).kind);
      if (!def || !roleAtLeast(role, def.role)) this.leave(member, name);
    }
  }

  /** Channel instances whose source runs. */
  get running(): number {
    return this.#instances.size;
  }

  close(): void {
    for (const [name, instance] of this.#instances) this.#stop(name, instance);
    this.#joined.clear();
  }

  #startSource(
    def: ChannelKindDef<unknown>,
    params: unknown,
    name: string,
    options: JoinOptions
  ): SourceHandle {
    let live = true;
    // A source that publishes after its stop (a stream still draining) is not heard.
    const started = def.start(
      params,
      (event, ...args) => {
        if (live) this.#transport.publish(name, event, args);
      },
      options
    );
    const handle = typeof started === 'function' ? { stop: started } : started;
    return {
      welcome: handle.welcome?.bind(handle),
      stop: () => {
        live = false;
        handle.stop();
      }
    };
  }

  #stop(name: string, instance: Instance): void {
    this.#instances.delete(name);
    try {
      instance.source?.stop();
    } catch (err) {
      this.#transport.onError(err, name);
    }
  }
}

function refuse(code: RefusalCode, message: string): ChannelRefusal {
  return { code, message };
}
