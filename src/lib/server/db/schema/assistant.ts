import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** Agents made in the console; agents from the config file live only in memory. */
export const agents = sqliteTable('agents', {
  name: text('name').primaryKey(),
  description: text('description').notNull().default(''),
  provider: text('provider').notNull(),
  model: text('model'),
  systemPrompt: text('system_prompt'),
  skills: text('skills', { mode: 'json' }).$type<string[]>().notNull(),
  heartbeatMs: integer('heartbeat_ms').notNull(),
  channel: text('channel'),
  disabled: integer('disabled', { mode: 'boolean' }).notNull().default(false),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull()
});

/** A conversation keyed by a string (`main`, `webhook:github`, `rpc:slack:u1` …) per agent. */
export const chatSessions = sqliteTable(
  'chat_sessions',
  {
    id: text('id').primaryKey(),
    agentName: text('agent_name').notNull(),
    key: text('key').notNull(),
    summary: text('summary'),
    compactedMessages: integer('compacted_messages').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull()
  },
  (t) => [
    uniqueIndex('chat_sessions_agent_key').on(t.agentName, t.key),
    index('chat_sessions_updated').on(t.updatedAt)
  ]
);

export const messages = sqliteTable(
  'messages',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => chatSessions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    role: text('role', { enum: ['user', 'assistant', 'system', 'tool'] }).notNull(),
    content: text('content').notNull(),
    turnId: text('turn_id'),
    channel: text('channel'),
    userId: text('user_id'),
    tokens: integer('tokens').notNull().default(0),
    /** The summary (session_summaries.id) that replaced this message in later turns' context. */
    compactedBy: text('compacted_by'),
    createdAt: integer('created_at').notNull()
  },
  (t) => [
    index('messages_session_seq').on(t.sessionId, t.seq),
    // A turn's history and compaction read only the uncompacted messages: without this they
    // stepped over every compacted one of the session, on every turn.
    index('messages_session_uncompacted')
      .on(t.sessionId, t.seq)
      .where(sql`${t.compactedBy} is null`),
    index('messages_created').on(t.createdAt)
  ]
);

/**
 * One compaction: the messages from `fromSeq` to `toSeq` (kept, marked compacted_by this id)
 * folded into `summary` (which includes the previous summary), by a model or extractively.
 */
export const sessionSummaries = sqliteTable(
  'session_summaries',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => chatSessions.id, { onDelete: 'cascade' }),
    fromSeq: integer('from_seq').notNull(),
    toSeq: integer('to_seq').notNull(),
    messageCount: integer('message_count').notNull(),
    summary: text('summary').notNull(),
    method: text('method', { enum: ['model', 'extractive'] }).notNull(),
    model: text('model'),
    trigger: text('trigger', { enum: ['manual', 'auto'] }).notNull(),
    createdAt: integer('created_at').notNull()
  },
  (t) => [index('session_summaries_session').on(t.sessionId, t.toSeq)]
);

export const TURN_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type TurnState = (typeof TURN_STATES)[number];

/**
 * Who wrote a turn's input: `operator`, an authenticated user whose role lets them command the
 * agent (REST operator/admin keys, RPC tokens, the console); `external`, an outside sender
 * (webhooks, system events), whose text is content and never a command.
 */
export const INPUT_TRUST = ['operator', 'external'] as const;
export type InputTrust = (typeof INPUT_TRUST)[number];

/** One agent run: a durable queue entry from `queued` to a final state. */
export const turns = sqliteTable(
  'turns',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id').notNull(),
    agentName: text('agent_name').notNull(),
    state: text('state', { enum: TURN_STATES }).notNull(),
    source: text('source').notNull(),
    /**
     * Empty since the input is kept once, in the turn's user message (`messageId`; read with
     * turnInput): a heartbeat turn's input is up to 32 KB of event lines, which the row would
     * store twice over and rewrite at every change of state. Older rows still hold theirs.
     */
    input: text('input').notNull(),
    model: text('model'),
    channel: text('channel'),
    userId: text('user_id'),
    context: text('context', { mode: 'json' }).$type<Record<string, unknown>>(),
    delivery: text('delivery').notNull().default('none'),
    /** What caused the turn, for usage: `apikey:<name>`, `token:<name>`, `user:<email>` … */
    credential: text('credential'),
    // Rows from before the column existed are treated as outside input: the safe side.
    trust: text('trust', { enum: INPUT_TRUST }).notNull().default('external'),
    messageId: text('message_id'),
    result: text('result'),
    error: text('error'),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    queuedAt: integer('queued_at').notNull(),
    startedAt: integer('started_at'),
    finishedAt: integer('finished_at')
  },
  (t) => [
    index('turns_state_agent').on(t.state, t.agentName, t.queuedAt),
    index('turns_queued').on(t.queuedAt)
  ]
);

export const EVENT_STATES = ['queued', 'processing', 'done', 'failed'] as const;
export type EventState = (typeof EVENT_STATES)[number];

/**
 * A system event queued by /wake, taken by the agent's next heartbeat. Its own `state` stays
 * `queued` when a heartbeat takes it: the slice that holds it (eventSlices) says what became of
 * it, and the view `system_event_states` shows each event with its slice's state, turn and
 * time. Its own state, turn and time count only for events outside every slice (events stored
 * before slices existed). Rows are never deleted, so rowids only grow.
 */
export const systemEvents = sqliteTable(
  'system_events',
  {
    id: text('id').primaryKey(),
    agentName: text('agent_name').notNull(),
    state: text('state', { enum: EVENT_STATES }).notNull(),
    text: text('text').notNull(),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    source: text('source').notNull(),
    turnId: text('turn_id'),
    createdAt: integer('created_at').notNull(),
    processedAt: integer('processed_at')
  },
  (t) => [index('system_events_agent').on(t.agentName)]
);

/**
 * What a heartbeat took of an agent's queue, in one write however many events: the agent's
 * events from `firstRowid` to `lastRowid` (system_events rowids) whose own state is `queued`.
 * `processing` while its turn runs, then `done` or `failed` with it; `queued` again (no turn)
 * when its turn was lost in a crash, to be taken whole by the next heartbeat. Slices of an
 * agent never overlap, and a newer one starts after every older one.
 */
export const eventSlices = sqliteTable(
  'event_slices',
  {
    id: integer('id').primaryKey(),
    agentName: text('agent_name').notNull(),
    firstRowid: integer('first_rowid').notNull(),
    lastRowid: integer('last_rowid').notNull(),
    count: integer('count').notNull(),
    state: text('state', { enum: EVENT_STATES }).notNull(),
    turnId: text('turn_id'),
    processedAt: integer('processed_at')
  },
  (t) => [
    index('event_slices_agent').on(t.agentName, t.firstRowid),
    // The few slices whose turns are under way, by turn: a turn's end and start-up recovery.
    index('event_slices_processing')
      .on(t.turnId)
      .where(sql`${t.state} = 'processing'`),
    // The few slices lost turns left, found without reading the others.
    index('event_slices_requeued')
      .on(t.agentName, t.firstRowid)
      .where(sql`${t.state} = 'queued'`)
  ]
);
