import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { Server, type Socket } from 'socket.io';
import {
  ROOMS,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SocketData
} from '$lib/contracts/realtime';
import { roleAtLeast } from '$lib/contracts/roles';
import type { DomainBus } from '../domain/bus';
import type { LoginSessionService } from '../domain/users/login-session.service';
import { readCookie, SESSION_COOKIE } from '../gateway/auth/cookie';
import type { Logger } from '../logger';

type IO = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type ClientSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

export interface RealtimeDeps {
  sessions: LoginSessionService;
  bus: DomainBus;
  logger: Logger;
  /** Host and Origin checks shared with the HTTP front. */
  acceptsHandshake(req: IncomingMessage): boolean;
  onCount(open: number): void;
}

/**
 * socket.io for the console: WebSocket transport only (browsers always send Origin on it),
 * the login-session check at the handshake, and rooms whose joins are checked by role.
 */
export function attachRealtime(server: HttpServer, deps: RealtimeDeps): { close(): Promise<void> } {
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
    const valid = deps.sessions.validate(token);
    if (!valid) return next(new Error('unauthorized'));
    socket.data = { userId: valid.user.id, sessionId: valid.sessionId, role: valid.user.role };
    void socket.join([`user:${valid.user.id}`, `session:${valid.sessionId}`]);
    next();
  });

  io.on('connection', (socket: ClientSocket) => {
    deps.onCount(io.engine.clientsCount);
    socket.on('disconnect', () => deps.onCount(io.engine.clientsCount));
    socket.on('room.join', (room, ack) => {
      if (typeof ack !== 'function') return;
      if (typeof room !== 'string' || !Object.hasOwn(ROOMS, room))
        return ack({ ok: false, error: 'unknown room' });
      if (!roleAtLeast(socket.data.role, ROOMS[room]))
        return ack({ ok: false, error: `the ${room} room needs the ${ROOMS[room]} role` });
      void socket.join(`room:${room}`);
      ack({ ok: true });
    });
    socket.on('room.leave', (room, ack) => {
      if (typeof room === 'string') void socket.leave(`room:${room}`);
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
    deps.bus.on('audit.appended', (entry) => io.to('room:audit').emit('audit.appended', entry)),
    deps.bus.on('agent.changed', (change) => io.to('room:agents').emit('agent.changed', change)),
    deps.bus.on('user.changed', (user) => {
      io.to('room:users').emit('user.changed', user);
      void demote(io, user.id, user.role).catch((err: unknown) =>
        deps.logger.warn({ err }, 'could not update socket roles')
      );
    })
  ];

  return {
    close: async () => {
      for (const off of unsubscribe) off();
      await new Promise<void>((resolve) => {
        io.disconnectSockets(true);
        // io.close() would also close the HTTP server; the entry does that itself.
        io.engine.close();
        resolve();
      });
    }
  };
}

/** A changed role applies to open sockets at once: rooms the new role may not see are left. */
async function demote(io: IO, userId: string, role: SocketData['role']): Promise<void> {
  for (const socket of await io.in(`user:${userId}`).fetchSockets()) {
    socket.data.role = role;
    for (const [room, minimum] of Object.entries(ROOMS))
      if (!roleAtLeast(role, minimum)) socket.leave(`room:${room}`);
  }
}
