import type { AgentChanged } from './agents';
import type { AuditEntry } from './audit';
import type { User } from './users';

/** Rooms a socket may ask to join, with the role each needs. */
export const ROOMS = { audit: 'admin', users: 'admin', agents: 'viewer' } as const;
export type Room = keyof typeof ROOMS;

export type Ack = (result: { ok: true } | { ok: false; error: string }) => void;

export interface ServerToClientEvents {
  /** The login session behind this socket ended (logout, disabled, password changed). */
  'session.ended': (payload: { reason: string }) => void;
  'audit.appended': (entry: AuditEntry) => void;
  'user.changed': (user: User) => void;
  'agent.changed': (change: AgentChanged) => void;
}

export interface ClientToServerEvents {
  'room.join': (room: Room, ack: Ack) => void;
  'room.leave': (room: Room, ack: Ack) => void;
}

export interface SocketData {
  userId: string;
  sessionId: string;
  role: import('./roles').Role;
}
