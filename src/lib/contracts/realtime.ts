import { z } from 'zod';
import type { AgentChanged } from './agents';
import type { AuditEntry } from './audit';
import type { SkillLogLine, SkillRunRecord } from './assistant';
import type { BuildLine, BuildSummary } from './buildfiles';
import type { ActivityItem } from './chat';
import type { TurnRecord } from './assistant';
import type { ExecClientEvents, ExecServerEvents } from './exec';
import type { Role } from './roles';
import type { User } from './users';
import type { CapturedDelivery } from './webhooks';

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

const engineName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/);
/** A container id or name, as the engine accepts it in a path: nothing else reaches the path. */
const containerRef = z.string().regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}$/);
/** `<engine>:<container>`. */
const engineContainer = z
  .string()
  .transform((s, ctx) => {
    const [engine = '', id = '', ...rest] = s.split(':');
    if (rest.length) ctx.addIssue({ code: 'custom', message: 'engine:container' });
    return { engine, id };
  })
  .pipe(z.object({ engine: engineName, id: containerRef }));

/** Channel kinds a socket may join. The server gives each a source (realtime/channels.ts). */
export const CHANNELS = {
  audit: { role: 'admin', params: z.undefined() },
  users: { role: 'admin', params: z.undefined() },
  agents: { role: 'viewer', params: z.undefined() },
  /** `container.logs:<engine>:<container>`: `container.log` batches, gaps, `stream.ended`. */
  'container.logs': { role: 'viewer', params: engineContainer },
  /** `container.stats:<engine>:<container>`: a `container.stats` sample about once a second. */
  'container.stats': { role: 'viewer', params: engineContainer },
  /** `engine.events:<engine>`: every `engine.event` from the moment of the join. */
  'engine.events': { role: 'viewer', params: engineName },
  /** `build.output:<build id>`: what was printed so far, then `build.output` lines, `build.ended`. */
  'build.output': { role: 'viewer', params: z.string().regex(/^[0-9a-f-]{36}$/) },
  /** `skill.run:<run id>`: a skill run's log lines as it prints them, then its record. */
  'skill.run': { role: 'viewer', params: z.string().regex(/^[0-9a-f-]{36}$/) },
  /** `session:<chat session id>`: its new messages, reply deltas and turn changes. */
  session: { role: 'viewer', params: z.string().regex(/^[0-9a-f-]{36}$/) },
  /** `activity`: every turn and system event as it changes, as small timeline rows. */
  activity: { role: 'viewer', params: z.undefined() },
  /**
   * `webhook.capture:<capture id>`: the wizard's capture, for the operator who opened it only
   * (the server also checks the opener): its delivery the moment it arrives, then its end.
   */
  'webhook.capture': { role: 'operator', params: z.string().regex(/^[a-z0-9]{16,40}$/) }
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

/**
 * Sent with a join to resume a log channel after a reconnect: `since` is the `ts` of the last
 * line the viewer holds and `seen` how many lines with exactly that `ts` it holds (usually 1);
 * those are skipped, so nothing arrives twice and nothing is missed. Without `since`, a log
 * channel starts with the last `tail` lines (200 by default).
 */
export const JoinOptions = z
  .object({
    since: z
      .string()
      .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/)
      .optional(),
    seen: z.number().int().min(0).max(1_000_000).optional(),
    tail: z.number().int().min(0).max(100_000).optional()
  })
  .strict();
export type JoinOptions = z.infer<typeof JoinOptions>;

/** One line of container output; `ts` is the engine's RFC3339Nano time of the line. */
export interface LogLine {
  stream: 'stdout' | 'stderr';
  ts?: string;
  line: string;
}

/**
 * Lines of a `container.logs` channel as the wire carries them: parallel arrays instead of one
 * object per line, which took about a third fewer bytes and less encoding work for the 40,000
 * lines a second a busy container prints. `ts[i]` is '' for a line without a time; `stderr`
 * lists the indexes of the stderr lines.
 */
export interface PackedLogLines {
  channel: string;
  /**
   * What every time of the batch starts with ("2026-11-23T10:00:0", about two thirds of each),
   * sent once: `ts` holds the rest of each ('' for a line without a time).
   */
  tsPrefix: string;
  ts: string[];
  text: string[];
  stderr: number[];
}

export function packLogLines(channel: string, lines: readonly LogLine[]): PackedLogLines {
  const ts: string[] = new Array<string>(lines.length);
  const text: string[] = new Array<string>(lines.length);
  const stderr: number[] = [];
  let prefix: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const time = l.ts ?? '';
    ts[i] = time;
    text[i] = l.line;
    if (l.stream === 'stderr') stderr.push(i);
    if (!time) continue;
    // Shorter than every time, so that no line's rest is empty (empty means "no time").
    if (prefix === null) prefix = time.slice(0, -1);
    else if (prefix.length >= time.length) prefix = prefix.slice(0, time.length - 1);
    while (!time.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  const cut = prefix?.length ?? 0;
  if (cut) for (let i = 0; i < ts.length; i++) if (ts[i]) ts[i] = ts[i]!.slice(cut);
  return { channel, tsPrefix: prefix ?? '', ts, text, stderr };
}

export function unpackLogLines({ tsPrefix, ts, text, stderr }: PackedLogLines): LogLine[] {
  const lines: LogLine[] = new Array<LogLine>(text.length);
  for (let i = 0; i < text.length; i++)
    lines[i] = ts[i]
      ? { stream: 'stdout', ts: tsPrefix + ts[i], line: text[i]! }
      : { stream: 'stdout', line: text[i]! };
  for (const i of stderr) if (lines[i]) lines[i].stream = 'stderr';
  return lines;
}

/** A stats sample as the console charts it. Bytes are totals since the container started. */
export interface StatsSample {
  /** The engine's time of the sample (ISO 8601). */
  read: string;
  /**
   * CPU use in % of one CPU (200 on two busy CPUs), from this sample and the previous one as
   * the engine documents it; null when there is no previous sample to compare with.
   */
  cpuPercent: number | null;
  onlineCpus: number;
  /** Memory in use without the page cache (inactive files), as `docker stats` shows it. */
  memory: { usage: number; limit: number; percent: number };
  network: { rxBytes: number; txBytes: number };
  blockIo: { readBytes: number; writeBytes: number };
  pids: number;
}

/** An engine event, with the engine's fields renamed to the console's casing. */
export interface EngineEvent {
  type: string;
  action: string;
  actor: { id: string; attributes: Record<string, string> };
  /** Unix seconds. */
  time: number;
  /** Unix nanoseconds (a float: its last digits are rounded). */
  timeNano: number;
}

/** A message as the `session:<id>` channel announces it. */
export interface ChatMessageNote {
  messageId: string;
  turnId: string | null;
  role: string;
  content: string;
  /** Who sent a user message; null for replies and senders without a user. */
  userId: string | null;
}

/** Exec sessions and pull progress (contracts/exec.ts) are per socket, outside the channels. */
export interface ServerToClientEvents extends ExecServerEvents {
  /** The login session behind this socket ended (logout, disabled, password changed). */
  'session.ended': (payload: { reason: string }) => void;
  'audit.appended': (entry: AuditEntry) => void;
  'user.changed': (user: User) => void;
  'agent.changed': (change: AgentChanged) => void;
  /** Lines of a `container.logs` channel, in order, stdout and stderr marked (packed). */
  'container.log': (batch: PackedLogLines) => void;
  /**
   * Lines are missing here: this socket read too slowly and `missed` lines were dropped rather
   * than held in server memory without bound; or a resume reached back further than the lines
   * read back for it (`missed: null`: reading them back failed, their number is unknown).
   */
  'container.log.gap': (gap: { channel: string; missed: number | null }) => void;
  'container.stats': (payload: { channel: string; sample: StatsSample }) => void;
  'engine.event': (payload: { channel: string; event: EngineEvent }) => void;
  /** Printed lines of a build in order (`seq` rises by one; a late joiner's first batch repeats). */
  'build.output': (payload: { channel: string; lines: BuildLine[] }) => void;
  /** The build ended (succeeded, failed, cancelled); nothing more comes on the channel. */
  'build.ended': (payload: { channel: string; build: BuildSummary }) => void;
  /** Lines a skill run printed, in order (a late joiner's first batch repeats the kept ones). */
  'skill.log': (payload: { channel: string; lines: SkillLogLine[] }) => void;
  /** The skill run ended (completed or failed); nothing more comes on the channel. */
  'skill.ended': (payload: { channel: string; run: SkillRunRecord }) => void;
  /** A message was stored in the session (a user's input, a tool call, a reply). */
  'chat.message': (payload: { channel: string; message: ChatMessageNote }) => void;
  /**
   * A piece of a running turn's reply. A socket that reads slowly gets the pieces it missed
   * joined into one, so nothing is lost and nothing piles up.
   */
  'chat.delta': (payload: { channel: string; turnId: string; text: string }) => void;
  'chat.turn': (payload: { channel: string; turn: TurnRecord }) => void;
  'activity.item': (payload: { channel: string; item: ActivityItem }) => void;
  /** `missed` rows were not sent to this socket (it read too slowly): reload to see them. */
  'activity.gap': (payload: { channel: string; missed: number }) => void;
  /** The capture's delivery (as `webhooks.capture.get` answers it), once it arrived. */
  'webhook.captured': (payload: { channel: string; delivery: CapturedDelivery }) => void;
  /** The capture expired or was closed: nothing more comes on the channel. */
  'webhook.capture.ended': (payload: { channel: string; reason: 'expired' | 'closed' }) => void;
  /**
   * An engine stream behind a channel ended (the container stopped, the engine went away, or
   * never opened): nothing more comes until the channel is left and joined again.
   */
  'stream.ended': (payload: { channel: string; reason: string }) => void;
}

export interface ClientToServerEvents extends ExecClientEvents {
  /**
   * Joins a channel (a socket.io room named after it); refusals say why in `error`. Options come
   * between the name and the ack: `emit('room.join', name, {since, seen}, ack)`.
   */
  'room.join': (channel: ChannelName, optionsOrAck: JoinOptions | Ack, ack?: Ack) => void;
  'room.leave': (channel: ChannelName, ack: Ack) => void;
}

export interface SocketData {
  userId: string;
  sessionId: string;
}
