import { z } from 'zod';
import {
  eventRecordSchema,
  messageRecordSchema,
  sessionRecordSchema,
  summaryRecordSchema,
  turnRecordSchema
} from './assistant';
import { checkSchema } from './health';

/**
 * What each JSON-RPC method returns. The method table types its handlers with these and
 * rpc.discover publishes them as JSON Schema; strict, so an answer with a field left out of its
 * schema fails validation instead of going undocumented.
 */

const epochMs = z.number().int().describe('milliseconds since the epoch');
const agentState = z.enum(['idle', 'running', 'disabled', 'error']);
const nextCursor = z
  .string()
  .nullable()
  .describe('pass as cursor for the next page; null on the last page');

export const agentListResult = z.strictObject({
  agents: z.array(
    z.strictObject({
      name: z.string(),
      description: z.string(),
      state: agentState,
      provider: z.string(),
      model: z.string().nullable()
    })
  )
});

export const agentStatusResult = z.strictObject({
  name: z.string(),
  state: agentState,
  queuedEvents: z.number().int(),
  runningTurns: z.number().int(),
  lastHeartbeatAt: epochMs.nullable(),
  nextHeartbeatAt: epochMs.nullable()
});

export const agentReloadResult = z.strictObject({
  name: z.string(),
  reloaded: z.literal(true)
});

export const agentSendMessageResult = z.strictObject({
  messageId: z.string(),
  status: z.literal('queued'),
  turnId: z.string().describe('follow it with turn.get or the turn.* topics'),
  sessionId: z.string()
});

export const sessionListResult = z.strictObject({
  sessions: z.array(sessionRecordSchema),
  nextCursor
});

export const sessionGetResult = z.strictObject({
  session: sessionRecordSchema,
  messages: z.array(messageRecordSchema).describe('oldest first, compacted ones included'),
  summaries: z
    .array(summaryRecordSchema)
    .describe('the summaries the compacted messages of this page stand behind')
});

export const sessionCompactResult = z.strictObject({
  sessionId: z.string(),
  compactedMessages: z.number().int(),
  summary: z.string()
});

export const sessionDeleteResult = z.strictObject({
  sessionId: z.string(),
  deleted: z.literal(true)
});

export const systemHealthResult = z.strictObject({
  status: z.enum(['ok', 'degraded']),
  checks: z.strictObject({
    database: checkSchema,
    engine: checkSchema.extend({ apiVersion: z.string().optional() }),
    providers: z.strictObject({ status: z.enum(['ok', 'error']), detail: z.string().optional() })
  })
});

export const systemInfoResult = z.strictObject({
  name: z.literal('berth'),
  version: z.string(),
  node: z.string(),
  startedAt: epochMs,
  engines: z.array(
    z.strictObject({
      name: z.string(),
      apiVersion: z.string().nullable().describe('null until Berth has spoken to it')
    })
  ),
  agents: z.array(z.string())
});

export const systemReloadResult = z.strictObject({
  reloaded: z.literal(true),
  changes: z.array(z.string()).describe('the configuration keys that changed')
});

const usageTotals = {
  messages: z.number().int(),
  turns: z.number().int(),
  tokens: z.strictObject({ prompt: z.number().int(), completion: z.number().int() })
};

export const usageStatsResult = z.strictObject({
  ...usageTotals,
  byAgent: z.record(z.string(), z.strictObject(usageTotals)),
  byDay: z.array(z.strictObject({ day: z.iso.date().describe('UTC'), ...usageTotals })),
  byCredential: z
    .record(z.string(), z.strictObject(usageTotals))
    .describe(
      'by what caused the turns: apikey:<name>, token:<name>, console:<email>, webhook, webhook:<mapping>, heartbeat; "unknown" for turns from before it was recorded'
    ),
  bySession: z
    .array(z.strictObject({ sessionId: z.string(), agentName: z.string(), ...usageTotals }))
    .describe('the 50 sessions with the most tokens'),
  requests: z.array(
    z.strictObject({
      interface: z.string().describe('rest, rpc or webhook'),
      route: z.string(),
      status: z.number().int(),
      token: z.string().nullable().describe('the credential name, never the secret'),
      count: z.number().int()
    })
  )
});

export const eventGetResult = eventRecordSchema;

export const eventListResult = z.strictObject({
  events: z.array(eventRecordSchema),
  nextCursor
});

export const turnGetResult = turnRecordSchema;

export const turnListResult = z.strictObject({
  turns: z.array(turnRecordSchema),
  nextCursor
});

export const subscriptionResult = z.strictObject({
  subscribed: z.array(z.string()).describe('every topic this connection now receives')
});

/** rpc.discover's own answer, described loosely: the OpenRPC 1.3 specification has the rest. */
export const discoverResult = z.looseObject({
  openrpc: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  methods: z.array(z.looseObject({ name: z.string() }))
});

export const skillListResult = z.strictObject({
  skills: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      kind: z.enum(['builtin', 'container', 'http']),
      paramsSchema: z.record(z.string(), z.unknown()).describe('JSON Schema of the params')
    })
  )
});

export const skillTriggerResult = z.strictObject({
  runId: z.string(),
  skillId: z.string(),
  status: z
    .enum(['running', 'completed', 'failed'])
    .describe('running: not done within gateway.rest.skillWaitMs; read it later with REST'),
  output: z.unknown().describe('stdout (JSON when it parses) or the endpoint’s answer'),
  exitCode: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  error: z.string().nullable().describe('why a failed run failed')
});
