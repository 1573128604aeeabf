import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '$lib/contracts/realtime';

export type ConsoleSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: ConsoleSocket | undefined;

/** One socket per tab, WebSocket only; the login cookie authenticates the handshake. */
export function consoleSocket(): ConsoleSocket {
  socket ??= io({ path: '/socket.io', transports: ['websocket'], withCredentials: true });
  return socket;
}
