import type { Duplex } from 'node:stream';
import type { Socket } from 'socket.io';
import { ExecClose, ExecInput, ExecResize, ExecStart, type ExecAck } from '$lib/contracts/exec';
import { roleAtLeast, type Role } from '$lib/contracts/roles';
import type { ContainerService } from '../domain/engine/container.service';
import type { EngineActor } from '../domain/engine/engine-access';
import type { Logger } from '../logger';
import { describeFailure } from './realtime-errors';
import { unsent } from './socket-outboxes';

/** Sessions one socket may hold at once. */
const MAX_SESSIONS = 8;
/**
 * engine.io packets a socket may have unsent before its sessions' engine streams are paused:
 * a terminal that prints faster than the browser reads is slowed down (TCP back-pressure to the
 * engine), not buffered in server memory.
 */
const MAX_UNSENT = 32;
/** How long a closed session's engine stream may take to end by itself before it is cut. */
const END_GRACE_MS = 5000;
/** How often the keys that end a closed session are typed again while its stream stays open. */
const RETYPE_MS = 250;

interface Session {
  execId: string;
  engine: string;
  actor: EngineActor;
  stream: Duplex;
  decoder: TextDecoder;
  /** Why the session was closed from this side; null while it runs. */
  closing: string | null;
}

/**
 * The exec sessions of one socket: started, fed, resized and closed by that socket only, and all
 * ended when it disconnects. Output goes to the socket alone (no room).
 */
export class SocketExecs {
  readonly #sessions = new Map<string, Session>();
  readonly #paused = new Set<Session>();
  readonly #onDrain = () => this.#resume();

  constructor(
    private readonly socket: Socket,
    private readonly containers: ContainerService,
    /** The socket's user as of now (the role is read afresh), or null if the session ended. */
    private readonly actorOf: () => EngineActor | null,
    private readonly logger: Logger
  ) {
    socket.conn.on('drain', this.#onDrain);
  }

  async start(
    raw: unknown,
    ack: (r: { ok: true; execId: string } | { ok: false; error: string }) => void
  ) {
    const input = ExecStart.safeParse(raw);
    if (!input.success) return ack({ ok: false, error: 'invalid exec request' });
    const actor = this.actorOf();
    if (!actor) return ack({ ok: false, error: 'the session ended' });
    if (!roleAtLeast(actor.role, 'operator'))
      return ack({ ok: false, error: 'Needs the operator role to run commands in a container' });
    if (this.#sessions.size >= MAX_SESSIONS)
      return ack({ ok: false, error: `at most ${MAX_SESSIONS} exec sessions per tab` });
    const { engine, container, cmd, cols, rows } = input.data;
    let started: { execId: string; stream: Duplex };
    try {
      started = await this.containers.exec(actor, {
        engine,
        id: container,
        cmd,
        tty: true,
        stdin: true
      });
    } catch (err) {
      return ack({ ok: false, error: describeFailure(err, this.logger, 'exec start') });
    }
    const session: Session = {
      ...started,
      engine,
      actor,
      decoder: new TextDecoder(),
      closing: null
    };
    if (!this.socket.connected) return void started.stream.destroy();
    this.#sessions.set(session.execId, session);
    this.#wire(session);
    ack({ ok: true, execId: session.execId });
    // The size the terminal had when it asked; a failed resize leaves the engine's default.
    void this.#resize(session, cols, rows).catch(() => undefined);
  }

  input(raw: unknown): void {
    const input = ExecInput.safeParse(raw);
    const session = input.success ? this.#sessions.get(input.data.execId) : undefined;
    if (session && !session.closing) session.stream.write(input.data!.data);
  }

  async resize(raw: unknown, ack?: ExecAck): Promise<void> {
    const input = ExecResize.safeParse(raw);
    const reply = typeof ack === 'function' ? ack : () => undefined;
    if (!input.success) return reply({ ok: false, error: 'invalid resize' });
    const session = this.#sessions.get(input.data.execId);
    if (!session) return reply({ ok: false, error: 'no such exec session' });
    try {
      await this.#resize(session, input.data.cols, input.data.rows);
      reply({ ok: true });
    } catch (err) {
      reply({ ok: false, error: describeFailure(err, this.logger, 'exec resize') });
    }
  }

  close(raw: unknown, ack?: ExecAck): void {
    const input = ExecClose.safeParse(raw);
    const reply = typeof ack === 'function' ? ack : () => undefined;
    const session = input.success ? this.#sessions.get(input.data.execId) : undefined;
    if (!session) return reply({ ok: false, error: 'no such exec session' });
    this.#end(session, 'closed');
    reply({ ok: true });
  }

  /** A changed role applies at once: below operator, every session ends. */
  restrict(role: Role): void {
    if (roleAtLeast(role, 'operator')) return;
    for (const session of [...this.#sessions.values()])
      this.#end(session, 'the operator role was taken away');
  }

  /** The socket disconnected: every session's engine stream is closed, listeners freed. */
  dispose(): void {
    this.socket.conn.off('drain', this.#onDrain);
    for (const session of [...this.#sessions.values()]) this.#end(session, 'the tab closed');
  }

  #resize(session: Session, cols: number, rows: number) {
    return this.containers.resizeExec(session.actor, {
      engine: session.engine,
      execId: session.execId,
      cols,
      rows
    });
  }

  #wire(session: Session): void {
    const { stream, execId } = session;
    stream.on('data', (chunk: Buffer) => {
      const data = session.decoder.decode(chunk, { stream: true });
      if (data) this.socket.emit('exec.output', { execId, data });
      if (unsent(this.socket) >= MAX_UNSENT) {
        stream.pause();
        this.#paused.add(session);
      }
    });
    stream.once('end', () => void this.#finish(session, 'the command exited'));
    stream.once('close', () => void this.#finish(session, 'the command exited'));
    stream.once('error', (err) => void this.#finish(session, describeFailure(err, this.logger)));
  }

  #resume(): void {
    if (unsent(this.socket) >= MAX_UNSENT) return;
    for (const session of this.#paused) session.stream.resume();
    this.#paused.clear();
  }

  /**
   * Closed from this side. Closing the connection alone leaves the command running in the
   * engine (it hangs nothing up), so the terminal is sent an interrupt and an end of input, as a
   * user at the keyboard would: a shell or a foreground program in it ends. The keys are typed
   * again every RETYPE_MS: keys that reach a terminal before its program reads it (a shell still
   * starting) are turned to nothing when the program switches the terminal to raw mode. The
   * connection is cut once the engine ends the stream, or after END_GRACE_MS.
   */
  #end(session: Session, reason: string): void {
    if (session.closing) return;
    session.closing = reason;
    const { stream } = session;
    const type = () => void (stream.writable && stream.write('\x03\x04'));
    type();
    const retype = setInterval(type, RETYPE_MS);
    const cut = setTimeout(() => stream.destroy(), END_GRACE_MS);
    stream.once('close', () => {
      clearInterval(retype);
      clearTimeout(cut);
    });
    void this.#finish(session, reason);
  }

  async #finish(session: Session, reason: string): Promise<void> {
    if (this.#sessions.get(session.execId) !== session) return;
    this.#sessions.delete(session.execId);
    this.#paused.delete(session);
    session.stream.removeAllListeners('data');
    session.stream.on('error', () => undefined);
    // A session closed from this side is cut by #end's timer if the engine keeps it open.
    if (!session.closing) session.stream.destroy();
    else session.stream.resume();
    const rest = session.decoder.decode();
    if (rest) this.socket.emit('exec.output', { execId: session.execId, data: rest });
    if (!this.socket.connected) return;
    const exitCode = session.closing ? undefined : await this.#exitCode(session);
    this.socket.emit('exec.ended', {
      execId: session.execId,
      reason: session.closing ?? reason,
      ...(exitCode !== undefined && { exitCode })
    });
  }

  /** The engine sets the exit code a moment after the output ends; asked for up to 3 s. */
  async #exitCode(session: Session): Promise<number | undefined> {
    for (let attempt = 0; attempt < 30; attempt++) {
      try {
        const state = await this.containers.execState(session.actor, session);
        if (!state.running) return state.exitCode;
      } catch {
        return undefined;
      }
      await new Promise((done) => setTimeout(done, 100));
    }
    return undefined;
  }
}
