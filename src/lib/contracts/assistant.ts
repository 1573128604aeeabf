import { z } from 'zod';

export interface AgentInfo {
  name: string;
  description: string;
  state: 'idle' | 'running' | 'disabled' | 'error';
  provider: string;
  model: string | null;
  source: 'config' | 'console';
}

/*
 * The records the gateway hands out, as zod schemas: rpc.discover publishes them as JSON Schema
 * (see rpc-results.ts) and the types below are inferred from them, so the two cannot drift.
 */
const epochMs = z.number().int().describe('milliseconds since the epoch');

export const turnStateSchema = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']);
export const eventStateSchema = z.enum(['queued', 'processing', 'done', 'failed']);

export const turnRecordSchema = z.strictObject({
  turnId: z.string(),
  sessionId: z.string(),
  agentName: z.string(),
  state: turnStateSchema,
  source: z.string().describe('where it came from: rest, rpc, webhook, heartbeat …'),
  queuedAt: epochMs,
  startedAt: epochMs.nullable(),
  finishedAt: epochMs.nullable(),
  result: z.string().nullable().describe('the reply, once completed'),
  error: z.string().nullable(),
  usage: z.strictObject({ prompt: z.number().int(), completion: z.number().int() })
});
export type TurnRecord = z.infer<typeof turnRecordSchema>;

export const eventRecordSchema = z.strictObject({
  eventId: z.string(),
  agentName: z.string(),
  state: eventStateSchema,
  text: z.string(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  createdAt: epochMs,
  processedAt: epochMs.nullable(),
  turnId: z.string().nullable().describe('the heartbeat turn that handled it')
});
export type EventRecord = z.infer<typeof eventRecordSchema>;

export const sessionRecordSchema = z.strictObject({
  sessionId: z.string(),
  agentName: z.string(),
  key: z.string(),
  messageCount: z.number().int(),
  summary: z.string().nullable().describe('older messages folded in by session.compact'),
  compactedMessages: z
    .number()
    .int()
    .describe('messages the summary stands for in later turns (kept, still readable)'),
  createdAt: epochMs,
  updatedAt: epochMs
});
export type SessionRecord = z.infer<typeof sessionRecordSchema>;

export const messageRecordSchema = z.strictObject({
  messageId: z.string(),
  role: z.enum(['user', 'assistant', 'system', 'tool']),
  content: z.string(),
  turnId: z.string().nullable(),
  channel: z.string().nullable(),
  userId: z.string().nullable(),
  compactedBy: z
    .string()
    .nullable()
    .describe('the summary that stands for this message in later turns (summaryId)'),
  createdAt: epochMs
});
export type MessageRecord = z.infer<typeof messageRecordSchema>;

/** One compaction chunk: the messages marked with its id, folded into `summary`. */
export const summaryRecordSchema = z.strictObject({
  summaryId: z.string(),
  messageCount: z.number().int(),
  summary: z.string().describe('the running summary after this chunk'),
  method: z.enum(['model', 'extractive']),
  model: z.string().nullable(),
  trigger: z.enum(['manual', 'auto']),
  createdAt: epochMs
});
export type SummaryRecord = z.infer<typeof summaryRecordSchema>;

export interface SkillInfo {
  id: string;
  name: string;
  description: string;
  kind: 'builtin' | 'container' | 'http';
  paramsSchema: Record<string, unknown>;
}

/** One line a skill run printed (`system`: Berth's own word, e.g. "timed out after 20000 ms"). */
export interface SkillLogLine {
  stream: 'stdout' | 'stderr' | 'system';
  text: string;
  /** Epoch ms when Berth read the line. */
  at: number;
}

export interface SkillRunRecord {
  runId: string;
  skillId: string;
  status: 'running' | 'completed' | 'failed';
  output: unknown;
  exitCode: number | null;
  durationMs: number | null;
  params: Record<string, unknown>;
  trigger: string;
  actor: string | null;
  startedAt: number;
  finishedAt: number | null;
  logs: string | null;
  /** Why a failed run failed, in words ("timed out after 20000 ms"); null otherwise. */
  error: string | null;
}

/** Page cursors are opaque strings; a bad one is an invalid parameter, never a crash. */
export const limitSchema = z.number().int().min(1).max(200);
