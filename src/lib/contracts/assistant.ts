import { z } from 'zod';

export const agentNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/, 'letters, digits, - and _ only');

export interface AgentInfo {
  name: string;
  description: string;
  state: 'idle' | 'running' | 'disabled' | 'error';
  provider: string;
  model: string | null;
  source: 'config' | 'console';
}

export interface TurnRecord {
  turnId: string;
  sessionId: string;
  agentName: string;
  state: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  source: string;
  queuedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  result: string | null;
  error: string | null;
  usage: { prompt: number; completion: number };
}

export interface EventRecord {
  eventId: string;
  agentName: string;
  state: 'queued' | 'processing' | 'done' | 'failed';
  text: string;
  metadata: Record<string, unknown> | null;
  createdAt: number;
  processedAt: number | null;
  turnId: string | null;
}

export interface SessionRecord {
  sessionId: string;
  agentName: string;
  key: string;
  messageCount: number;
  summary: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface MessageRecord {
  messageId: string;
  role: 'user' | 'assistant' | 'system' | 'tool';
  content: string;
  turnId: string | null;
  channel: string | null;
  userId: string | null;
  createdAt: number;
}

export interface SkillInfo {
  id: string;
  name: string;
  description: string;
  kind: 'builtin' | 'container' | 'http';
  paramsSchema: Record<string, unknown>;
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
}

/** Page cursors are opaque strings; a bad one is an invalid parameter, never a crash. */
export const limitSchema = z.number().int().min(1).max(200);
