import { z } from 'zod';
import type { AgentInfo } from './assistant';
import { agentNameSchema, CHANNEL_MAX, CHANNEL_PATTERN, skillIdSchema } from './fields';

/** Names of agents made in the console: they appear in session keys, URLs and logs. */
export const consoleAgentNameSchema = z
  .string()
  .trim()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,62}$/,
    'Use lowercase letters, digits, - and _ (at most 63), starting with a letter or digit'
  );

export const HEARTBEAT_MIN_MS = 1000;
/** A day: a longer interval reads as a mistake, and timers this long gain nothing. */
export const HEARTBEAT_MAX_MS = 86_400_000;

/** Optional text: blank becomes null, so "cleared in the form" and "never set" are one thing. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters`)
    .nullish()
    .transform((v) => v || null);

/** Everything about an agent but its name (the name is its identity and cannot change). */
export const agentSettingsSchema = z.strictObject({
  description: z.string().trim().max(500, 'Use at most 500 characters').default(''),
  provider: z.string().trim().min(1, 'Choose a provider').max(64),
  model: optionalText(200),
  systemPrompt: optionalText(20_000),
  skills: z
    .array(skillIdSchema)
    .max(100)
    .default([])
    .transform((list) => [...new Set(list)]),
  heartbeatMs: z
    .number()
    .int()
    .min(HEARTBEAT_MIN_MS, 'Beat at most once a second')
    .max(HEARTBEAT_MAX_MS, 'Beat at least once a day')
    .default(30_000),
  channel: optionalText(CHANNEL_MAX).refine((c) => c === null || CHANNEL_PATTERN.test(c), {
    error: 'Use letters, digits, . _ @ - only'
  })
});

export const createAgentInput = agentSettingsSchema.extend({ name: consoleAgentNameSchema });
export type CreateAgentInput = z.input<typeof createAgentInput>;
export type AgentDefinition = z.output<typeof createAgentInput>;

/** Edits replace every setting; the name picks the agent (config names are refused in words). */
export const updateAgentInput = agentSettingsSchema.extend({ name: agentNameSchema });
export type UpdateAgentInput = z.input<typeof updateAgentInput>;

export const agentNameInput = z.object({ name: agentNameSchema });
export const setAgentDisabledInput = agentNameInput.extend({ disabled: z.boolean() });

export type AgentState = AgentInfo['state'];

/** An agent in force: its definition, whether it is disabled, and where it comes from. */
export interface AgentRecord extends AgentDefinition {
  disabled: boolean;
  source: 'config' | 'console';
}

/** What the console shows of an agent: its definition, its state and its dates. */
export interface AgentView extends AgentRecord {
  /** `shadowed`: a console agent whose name the config file now declares; the config wins. */
  state: AgentState | 'shadowed';
  /** When the heartbeat last took events (null before the first beat since start). */
  lastHeartbeatAt: number | null;
  /** The heartbeat timer's next tick; null while disabled or shadowed (no timer runs). */
  nextHeartbeatAt: number | null;
  createdAt: number | null;
  updatedAt: number | null;
}

/** The choices the create and edit forms offer. */
export interface AgentOptions {
  providers: string[];
  skills: { id: string; name: string; description: string }[];
}

/** `state`: a turn started or ended; the others: the agent's definition changed. */
export type AgentChange = 'state' | 'created' | 'updated' | 'deleted';

export interface AgentChanged {
  name: string;
  change: AgentChange;
  /** null once the agent is gone. */
  state: AgentState | null;
}
