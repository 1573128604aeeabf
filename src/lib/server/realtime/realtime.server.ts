import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { Server, type Socket } from 'socket.io';
import {
  JoinOptions,
  type Ack,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SocketData
} from '$lib/contracts/realtime';
import type { DomainBus } from '../domain/bus';
import type { SkillService } from '../domain/skills/skill.service';
import type { BuildService } from '../domain/buildfiles/build.service';
import type { ActivityService } from '../domain/chat/activity.service';
import type { WebhookCaptureService } from '../domain/webhooks/webhook-capture.service';
import type { ContainerService } from '../domain/engine/container.service';
import type { EngineActor } from '../domain/engine/engine-access';
import type { ImageService } from '../domain/engine/image.service';
import type { EngineStreamsLookup } from '../engine/engine-streams';
import type { LoginSessionService } from '../domain/users/login-session.service';
import { readCookie, SESSION_COOKIE } from '../http/cookie';
import type { Logger } from '../logger';
import { ChannelHub, type SourceEvents } from './channel-hub';
import { consoleChannels } from './channels';
import { SocketExecs } from './socket-execs';
import { FeedOutboxes } from './feed-outboxes';
import { LogOutboxes } from './socket-outboxes';
import { SocketPulls } from './socket-pulls';

type IO = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type ClientSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

export interface RealtimeDeps {
  loginSessions: LoginSessionService;
  bus: DomainBus;
  engines: EngineStreamsLookup;
  /** Exec sessions and pulls go through the domain's engine services (role checks, audit). */
  engineServices: { containers: ContainerService; images: ImageService };
  /** Builds followed on `build.output:<id>`. */
  builds: BuildService;
  /** Skill runs followed on `skill.run:<id>`. */
  skills: SkillService;
  /** Timeline rows of the `activity` channel. */
  activity: ActivityService;
  /** The wizard's captures, followed on `webhook.capture:<id>` by their openers. */
  captures: WebhookCaptureService;
  logger: Logger;
  /** Host and Origin checks shared with the HTTP front. */
  acceptsHandshake(req: IncomingMessage): boolean;
  onCount(open: number): void;
}

/**
 * socket.io for the console: WebSocket transport only (browsers always send Origin on it),
 * the login-session check at the handshake, and channels (channel-hub.ts) whose joins are checked
 * by role. A channel's members share the socket.io room `room:<channel name>`.
 */
export function attachRealtime(
  server: HttpServer,
  deps: RealtimeDeps
): { close(): Promise<void>; readonly logLinesHeld: number } {
  const io: IO = new Server(server, {
    path: '/socket.io',
    serveClient: false,
    transports: ['websocket'],
    maxHttpBufferSize: 64 * 1024,
    // /rpc/ws shares the server's upgrade event: socket.io must leave other paths alone.
    destroyUpgrade: false,
    allowRequest: (req, callback) => callback(null, deps.acceptsHandshake(req))
  });

  io.use((socket, next) => {
    const token = readCookie(socket.request.headers.cookie, SESSION_COOKIE);
    const valid = deps.loginSessions.validate(token);
    if (!valid) return next(new Error('unauthorized'));
    socket.data = { userId: valid.user.id, sessionId: valid.sessionId };
    void socket.join([`user:${valid.user.id}`, `session:${valid.sessionId}`]);
    next();
  });

  const socketOf = (member: string) => io.sockets.sockets.get(member);
  // Log lines go to each member through its own bounded outbox, not to the room at large.
  const outboxes = new LogOutboxes(socketOf);
  // Reply deltas and timeline rows: coalesced or dropped for a socket that reads slowly.
  const feeds = new FeedOutboxes(socketOf);
  const hub = new ChannelHub(consoleChannels(deps), {
    enter: (member, channel, options) => {
      void socketOf(member)?.join(roomOf(channel));
      outboxes.open(member, channel, options);
    },
    // A socket that disconnected has already left its socket.io rooms.
    exit: (member, channel) => {
      void socketOf(member)?.leave(roomOf(channel));
      outboxes.close(member, channel);
      feeds.close(member, channel);
    },
    publish: (channel, event, args) => {
      const members = io.sockets.adapter.rooms.get(roomOf(channel));
      if (outboxes.deliver(channel, event, args, members)) return;
      if (outboxes.deliverSampled(event, args, members)) return;
      if (feeds.deliver(channel, event, args, members)) return;
      // Log lines never get here (their outboxes take them): the rest are the wire's own events.
      emitWire(io.to(roomOf(channel)), event, args);
    },
    backfill: (member, channel, pending) => outboxes.backfill(member, channel, pending),
    send: (member, channel, event, args) => {
      if (!outboxes.deliver(channel, event, args, [member]))
        emitWire(socketOf(member), event, args);
    },
    onError: (err, channel) => deps.logger.warn({ err, channel }, 'a channel source failed to stop')
  });

  // Per socket, outside the channels: exec sessions and pulls belong to the socket that started them.
  const execs = new Map<string, SocketExecs>();

  io.on('connection', (socket: ClientSocket) => {
    deps.onCount(io.engine.clientsCount);
    // The user as of now: the role may have changed since the handshake.
    const actorOf = (): EngineActor | null => {
      const valid = deps.loginSessions.validate(
        readCookie(socket.request.headers.cookie, SESSION_COOKIE)
      );
      if (!valid) return null;
      const { id, email, role } = valid.user;
      return { id, email, role, ip: socket.handshake.address || null };
    };
    const { containers, images } = deps.engineServices;
    const socketExecs = new SocketExecs(socket, containers, actorOf, deps.logger);
    const pulls = new SocketPulls(socket, images, actorOf, deps.logger);
    execs.set(socket.id, socketExecs);
    socket.on('disconnect', () => {
      hub.leaveAll(socket.id);
      execs.delete(socket.id);
      socketExecs.dispose();
      pulls.dispose();
      deps.onCount(io.engine.clientsCount);
    });
    socket.on('exec.start', (start, ack) => {
      if (typeof ack === 'function') void socketExecs.start(start, ack);
    });
    socket.on('exec.input', (input) => socketExecs.input(input));
    socket.on('exec.resize', (resize, ack) => void socketExecs.resize(resize, ack));
    socket.on('exec.close', (close, ack) => socketExecs.close(close, ack));
    socket.on('image.pull', (pull, ack) => {
      if (typeof ack === 'function') void pulls.pull(pull, ack);
    });
    socket.on('room.join', (channel, optionsOrAck, lastAck) => {
      const ack: unknown = typeof optionsOrAck === 'function' ? optionsOrAck : lastAck;
      if (typeof ack !== 'function') return;
      const reply = ack as Ack;
      if (typeof channel !== 'string') return reply({ ok: false, error: 'unknown room' });
      const options = JoinOptions.safeParse(typeof optionsOrAck === 'function' ? {} : optionsOrAck);
      if (!options.success) return reply({ ok: false, error: 'invalid join options' });
      // The role is read afresh: the user may have changed, or the session expired, since the
      // handshake (an ended session has closed the socket already).
      const valid = deps.loginSessions.validate(
        readCookie(socket.request.headers.cookie, SESSION_COOKIE)
      );
      if (!valid) {
        reply({ ok: false, error: 'the session ended' });
        socket.emit('session.ended', { reason: 'session ended' });
        return void socket.disconnect(true);
      }
      const refusal = hub.join(socket.id, valid.user.role, channel, options.data, valid.user.id);
      reply(refusal ? { ok: false, error: refusal.message } : { ok: true });
    });
    socket.on('room.leave', (channel, ack) => {
      if (typeof channel === 'string') hub.leave(socket.id, channel);
      if (typeof ack === 'function') ack({ ok: true });
    });
  });

  const unsubscribe = [
    deps.bus.on('sessions.ended', ({ userId, sessionIds, reason }) => {
      const rooms = sessionIds.length
        ? sessionIds.map((id) => `session:${id}`)
        : [`user:${userId}`];
      io.to(rooms).emit('session.ended', { reason });
      io.in(rooms).disconnectSockets(true);
    }),
    // A changed role applies to open sockets at once: channels the new role may not see are left.
    deps.bus.on('user.changed', (user) => {
      for (const id of io.sockets.adapter.rooms.get(`user:${user.id}`) ?? []) {
        hub.restrict(id, user.role);
        execs.get(id)?.restrict(user.role);
      }
    })
  ];

  return {
    get logLinesHeld() {
      return outboxes.held;
    },
    close: async () => {
      for (const off of unsubscribe) off();
      await new Promise<void>((resolve) => {
        io.disconnectSockets(true);
        hub.close();
        // io.close() would also close the HTTP server; the entry does that itself.
        io.engine.close();
        resolve();
      });
    }
  };
}

function roomOf(channel: string): string {
  return `room:${channel}`;
}

/** Emits a source's event as the wire has it: any but `container.log`, which outboxes pack. */
function emitWire<E extends keyof SourceEvents>(
  target: { emit: unknown } | undefined,
  event: E,
  args: Parameters<SourceEvents[E]>
): void {
  (target as { emit(event: string, ...args: unknown[]): unknown } | undefined)?.emit(
    event,
    ...args
  );
}
