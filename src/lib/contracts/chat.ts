import { z } from 'zod';
import type { EventRecord, MessageRecord, SessionRecord, TurnRecord } from './assistant';
import type { DeliverySummary } from './webhooks';

/** The console's Chat page and Activity timeline: tRPC inputs and what they answer. */

const id = z.string().min(1).max(200);
const agentName = z.string().trim().min(1).max(64);

export const chatSendInput = z.object({
  agent: agentName,
  /** An existing session of that agent; none starts a new one. */
  sessionId: id.optional(),
  message: z.string().trim().min(1, 'Write a message first').max(32_000)
});
export type ChatSendInput = z.input<typeof chatSendInput>;

export const chatStopInput = z.object({ turnId: id });

export const chatHistoryInput = z.object({
  sessionId: id,
  /** The cursor of the previous page (`olderCursor`): the messages before it. */
  before: id.optional(),
  limit: z.number().int().min(1).max(100).default(30)
});

export interface ChatHistoryPage {
  session: SessionRecord;
  /** Oldest first; the newest page comes first, older pages as the reader scrolls up. */
  messages: MessageRecord[];
  /** Pass as `before` for the page of older messages; null when this page is the oldest. */
  olderCursor: string | null;
}

export const chatTurnsInput = z.object({
  sessionId: id,
  cursor: z.string().max(400).optional(),
  limit: z.number().int().min(1).max(100).default(20)
});

export const ACTIVITY_SOURCES = ['webhook', 'rest', 'rpc', 'console', 'heartbeat'] as const;
export const ACTIVITY_STATES = [
  'queued',
  'running',
  'processing',
  'completed',
  'done',
  'failed',
  'cancelled'
] as const;

export const activityListInput = z.object({
  agent: agentName.optional(),
  sessionId: id.optional(),
  kind: z.enum(['turn', 'event']).optional(),
  state: z.enum(ACTIVITY_STATES).optional(),
  source: z.string().trim().min(1).max(40).optional(),
  /** Epoch ms: items queued at or after / before. */
  since: z.number().int().nonnegative().optional(),
  until: z.number().int().nonnegative().optional(),
  cursor: z.string().max(400).optional(),
  limit: z.number().int().min(1).max(100).default(50)
});
export type ActivityFilter = Omit<z.infer<typeof activityListInput>, 'cursor' | 'limit'>;

/** One row of the timeline: small, so a live feed of many stays light. */
export interface ActivityItem {
  kind: 'turn' | 'event';
  id: string;
  agentName: string;
  /** A turn's session; an event has none. */
  sessionId: string | null;
  state: string;
  source: string;
  /** When it was queued (a turn) or received (an event). */
  at: number;
  startedAt: number | null;
  /** When it ended (a turn) or was processed (an event). */
  finishedAt: number | null;
  error: string | null;
  /** An event's text, cut short; empty for a turn. */
  text: string;
  /** The turn that took an event. */
  turnId: string | null;
}

export interface ActivityPage {
  items: ActivityItem[];
  nextCursor: string | null;
}

const TEXT_MAX = 160;
const cut = (text: string) => (text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX)}…` : text);

export function turnItem(turn: TurnRecord): ActivityItem {
  return {
    kind: 'turn',
    id: turn.turnId,
    agentName: turn.agentName,
    sessionId: turn.sessionId,
    state: turn.state,
    source: turn.source,
    at: turn.queuedAt,
    startedAt: turn.startedAt,
    finishedAt: turn.finishedAt,
    error: turn.error,
    text: '',
    turnId: turn.turnId
  };
}

export function eventItem(event: EventRecord, source: string): ActivityItem {
  return {
    kind: 'event',
    id: event.eventId,
    agentName: event.agentName,
    sessionId: null,
    state: event.state,
    source,
    at: event.createdAt,
    startedAt: null,
    finishedAt: event.processedAt,
    error: null,
    text: cut(event.text),
    turnId: event.turnId
  };
}

/** Does a live item belong in a filtered timeline (the page filters what the channel sends)? */
export function matchesActivity(item: ActivityItem, filter: ActivityFilter): boolean {
  return (
    (!filter.agent || item.agentName === filter.agent) &&
    (!filter.sessionId || item.sessionId === filter.sessionId) &&
    (!filter.kind || item.kind === filter.kind) &&
    (!filter.state || item.state === filter.state) &&
    (!filter.source || item.source === filter.source) &&
    (filter.since === undefined || item.at >= filter.since) &&
    (filter.until === undefined || item.at < filter.until)
  );
}

/**
 * A tool call as the runner records it: a `tool` message holding `{skill, params, output}`, or
 * for a failed one `{skill, params, error}` with what else the model got (exit code, the output
 * before the failure, the last log lines).
 */
export interface ToolCall {
  skill: string;
  params: Record<string, unknown>;
  output?: unknown;
  error?: string;
  exitCode?: number;
  logs?: string;
}

export function parseToolCall(content: string): ToolCall | null {
  try {
    const value: unknown = JSON.parse(content);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    const v = value as Record<string, unknown>;
    if (typeof v.skill !== 'string') return null;
    const params =
      v.params && typeof v.params === 'object' && !Array.isArray(v.params)
        ? (v.params as Record<string, unknown>)
        : {};
    return {
      skill: v.skill,
      params,
      ...('output' in v ? { output: v.output } : {}),
      ...(typeof v.error === 'string' ? { error: v.error } : {}),
      ...(typeof v.exitCode === 'number' ? { exitCode: v.exitCode } : {}),
      ...(typeof v.logs === 'string' ? { logs: v.logs } : {})
    };
  } catch {
    return null;
  }
}

export const activityDetailInput = z.object({ id });

export interface TurnDetail {
  turn: TurnRecord;
  input: string;
  trust: 'operator' | 'external';
  model: string | null;
  channel: string | null;
  userId: string | null;
  /** The user's message, the tool calls and the reply, in order. */
  messages: MessageRecord[];
  toolCalls: ToolCall[];
  /** The webhook delivery that queued it, while the delivery log still holds it. */
  delivery: DeliverySummary | null;
}

export interface EventDetail {
  event: EventRecord;
  source: string;
  /** The heartbeat turn that took it, once taken. */
  turn: TurnRecord | null;
  delivery: DeliverySummary | null;
}
