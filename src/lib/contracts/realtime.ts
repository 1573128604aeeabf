import { z } from 'zod';
import type { AgentChanged } from './agents';
import type { AuditEntry } from './audit';
import type { Role } from './roles';
import type { User } from './users';

/**
 * A kind of realtime channel: the role a socket needs to join it, and what its parameter looks
 * like. A channel is named `kind` or `kind:param` (`agents`, later `container.logs:<id>`);
 * `params` validates the text after the first colon, and is `z.undefined()` for a kind that
 * takes none.
 */
export interface ChannelSpec<P = unknown> {
  role: Role;
  params: z.ZodType<P>;
}

/** Channel kinds a socket may join. The server gives each a source (realtime/channels.ts). */
export const CHANNELS = {
  audit: { role: 'admin', params: z.undefined() },
  users: { role: 'admin', params: z.undefined() },
  agents: { role: 'viewer', params: z.undefined() }
} as const satisfies Record<string, ChannelSpec>;

export type ChannelKind = keyof typeof CHANNELS;
export type ChannelParams<K extends ChannelKind> = z.output<(typeof CHANNELS)[K]['params']>;
/** A name a socket joins: the bare kind when it takes no parameter, else `kind:param`. */
export type ChannelName = {
  [K in ChannelKind]: ChannelParams<K> extends undefined ? K : `${K}:${string}`;
}[ChannelKind];

/** Longer names are refused before anything parses them. */
export const CHANNEL_NAME_MAX = 200;

/** Splits `kind:param` at its first colon; a name without one has no parameter. */
export function splitChannelName(name: string): { kind: string; param: string | undefined } {
  const colon = name.indexOf(':');
  return colon < 0
    ? { kind: name, param: undefined }
    : { kind: name.slice(0, colon), param: name.slice(colon + 1) };
}

export type Ack = (result: { ok: true } | { ok: false; error: string }) => void;

export interface ServerToClientEvents {
  /** The login session behind this socket ended (logout, disabled, password changed). */
  'session.ended': (payload: { reason: string }) => void;
  'audit.appended': (entry: AuditEntry) => void;
  'user.changed': (user: User) => void;
  'agent.changed': (change: AgentChanged) => void;
}

export interface ClientToServerEvents {
  /** Joins a channel (a socket.io room named after it); refusals say why in `error`. */
  'room.join': (channel: ChannelName, ack: Ack) => void;
  'room.leave': (channel: ChannelName, ack: Ack) => void;
}

export interface SocketData {
  userId: string;
  sessionId: string;
}
