import { z } from 'zod';
import { eventStateSchema, limitSchema, turnStateSchema } from './assistant';
import { agentNameSchema, channelSchema, messageTextSchema } from './fields';
import * as results from './rpc-results';
import { MAX_TOPICS, topicPattern } from './rpc-topics';

/**
 * Every JSON-RPC method Berth answers, written once: params (zod, strict: an unknown field is
 * an error, not silently dropped), result (the handler's return type must fit it), who may
 * call it, and the description rpc.discover publishes. The RPC adapter supplies one handler per
 * name; its permission check, rpc.discover and the console's permission picker read this table.
 */

/**
 * `always`: any authenticated caller, whatever its permissions (it reveals or changes nothing);
 * `read`: also a console viewer over /rpc/ws; `write`: operators and admins only. RPC tokens
 * may call what their permissions list, plus the `always` methods.
 */
export type RpcAccess = 'read' | 'write' | 'always';

export interface RpcMethodContract<
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType
> {
  description: string;
  params: P;
  result: R;
  access: RpcAccess;
  /** Needs a /rpc/ws connection (push subscriptions). */
  wsOnly?: true;
  /** false: not offered as a token permission (it only undoes another method). */
  grantable?: false;
}

const id = z.string().min(1).max(200);
const limit = limitSchema.optional().describe('page size, 1 to 200 (default 50)');
const cursor = z.string().min(1).max(400).optional().describe('nextCursor of the previous page');
const none = z.strictObject({});
const instant = z
  .union([z.number().int().min(0), z.iso.datetime({ offset: true }), z.iso.date()])
  .optional()
  .describe('milliseconds since the epoch, or an ISO 8601 date or date-time');

export const RPC_CONTRACTS = {
  'agent.list': {
    description: 'List all agents.',
    params: none,
    result: results.agentListResult,
    access: 'read'
  },
  'agent.status': {
    description: 'The state of one agent: queued events, running turns, heartbeats.',
    params: z.strictObject({ agentName: agentNameSchema }),
    result: results.agentStatusResult,
    access: 'read'
  },
  'agent.reload': {
    description:
      "Re-read the configuration file and apply this agent's settings; an invalid file keeps the old configuration (-32603 with the error in data.detail).",
    params: z.strictObject({ agentName: agentNameSchema }),
    result: results.agentReloadResult,
    access: 'write'
  },
  'agent.sendMessage': {
    description:
      'Queue a message for an agent as a turn on session rpc:<channel>:<userId>. channel defaults to "rpc", userId to the token name. Follow it with turn.get or the turn.* topics of /rpc/ws.',
    params: z.strictObject({
      agentName: agentNameSchema,
      channel: channelSchema.optional(),
      userId: z.string().min(1).max(128).optional(),
      message: messageTextSchema
    }),
    result: results.agentSendMessageResult,
    access: 'write'
  },
  'session.list': {
    description: 'List sessions, most recently updated first.',
    params: z.strictObject({ agentName: agentNameSchema.optional(), limit, cursor }),
    result: results.sessionListResult,
    access: 'read'
  },
  'session.get': {
    description:
      'A session and its newest messages (oldest first); before is a messageId to page back.',
    params: z.strictObject({ sessionId: id, limit, before: id.optional() }),
    result: results.sessionGetResult,
    access: 'read'
  },
  'session.compact': {
    description: 'Fold older messages of a session into its summary.',
    params: z.strictObject({ sessionId: id }),
    result: results.sessionCompactResult,
    access: 'write'
  },
  'session.delete': {
    description: 'Delete a session and its messages.',
    params: z.strictObject({ sessionId: id }),
    result: results.sessionDeleteResult,
    access: 'write'
  },
  'system.health': {
    description: 'Health of the database, the container engine and the agents’ providers.',
    params: none,
    result: results.systemHealthResult,
    access: 'read'
  },
  'system.info': {
    description: 'Name, version, Node.js version, start time, engines and agents.',
    params: none,
    result: results.systemInfoResult,
    access: 'read'
  },
  'system.reload': {
    description:
      'Re-read the configuration file. An invalid file keeps the old configuration and answers -32603 with the error in data.detail (and data.issues).',
    params: none,
    result: results.systemReloadResult,
    access: 'write'
  },
  'usage.stats': {
    description:
      "Messages, turns and tokens in [since, until), by agent, day (UTC), credential and session (the 50 largest), plus request counts per interface. Tokens are the providers' own usage figures (estimated at 4 characters a token when a provider reports none).",
    params: z.strictObject({
      since: instant,
      until: instant,
      agentName: agentNameSchema.optional(),
      sessionId: id.optional(),
      credential: z.string().min(1).max(200).optional()
    }),
    result: results.usageStatsResult,
    access: 'read'
  },
  'event.get': {
    description: 'A system event queued by /wake, and the turn that handled it.',
    params: z.strictObject({ eventId: id }),
    result: results.eventGetResult,
    access: 'read'
  },
  'event.list': {
    description: 'System events, newest first.',
    params: z.strictObject({
      agentName: agentNameSchema.optional(),
      state: eventStateSchema.optional(),
      limit,
      cursor
    }),
    result: results.eventListResult,
    access: 'read'
  },
  'skill.list': {
    description: 'List the skills (builtin, config file and console), each with its params schema.',
    params: none,
    result: results.skillListResult,
    access: 'read'
  },
  'skill.trigger': {
    description:
      "Run a skill. Params failing the skill's JSON Schema are -32602 naming the field. Answers with the run once it ends, or status running after gateway.rest.skillWaitMs (read it later at GET /api/v1/skills/runs/<runId>).",
    params: z.strictObject({
      skillId: z.string().min(1).max(100),
      params: z.record(z.string(), z.unknown()).optional()
    }),
    result: results.skillTriggerResult,
    access: 'write'
  },
  'turn.get': {
    description: 'One turn: state, result or error, token usage.',
    params: z.strictObject({ turnId: id }),
    result: results.turnGetResult,
    access: 'read'
  },
  'turn.cancel': {
    description:
      'Cancel a queued or running turn. A running one is aborted (with its request to the model provider) and ends cancelled; follow it with turn.get or turn.*.',
    params: z.strictObject({ turnId: id }),
    result: results.turnGetResult,
    access: 'write'
  },
  'turn.list': {
    description: 'Turns, newest first.',
    params: z.strictObject({
      agentName: agentNameSchema.optional(),
      state: turnStateSchema.optional(),
      sessionId: id.optional(),
      limit,
      cursor
    }),
    result: results.turnListResult,
    access: 'read'
  },
  'events.subscribe': {
    description:
      '/rpc/ws only: receive {"jsonrpc":"2.0","method":"notify","params":{topic,data}} for these topics: exact names (turn.completed, message.delta …), groups (turn.*, message.*, event.*, session.*, agent.*) or *; optionally for one agent.',
    wsOnly: true,
    params: z.strictObject({
      topics: z.array(topicPattern).min(1).max(MAX_TOPICS),
      agentName: agentNameSchema.optional()
    }),
    result: results.subscriptionResult,
    // Pushed notifications need their own permission.
    access: 'read'
  },
  'events.unsubscribe': {
    description: '/rpc/ws only: stop these topics (all when topics is omitted).',
    wsOnly: true,
    params: z.strictObject({ topics: z.array(z.string().max(64)).max(MAX_TOPICS).optional() }),
    result: results.subscriptionResult,
    access: 'always',
    grantable: false
  },
  'rpc.discover': {
    description: 'This API as an OpenRPC document.',
    params: none,
    result: results.discoverResult,
    access: 'always'
  }
} as const satisfies Record<string, RpcMethodContract>;

export type RpcMethodName = keyof typeof RPC_CONTRACTS;
export type RpcParams<N extends RpcMethodName> = z.output<(typeof RPC_CONTRACTS)[N]['params']>;
export type RpcResult<N extends RpcMethodName> = z.output<(typeof RPC_CONTRACTS)[N]['result']>;

/** The contract of a method by name, or undefined for a name Berth does not answer. */
export function rpcContract(name: string): RpcMethodContract | undefined {
  return Object.hasOwn(RPC_CONTRACTS, name)
    ? (RPC_CONTRACTS as Record<string, RpcMethodContract>)[name]
    : undefined;
}

/** The vocabulary of RPC token permissions: every method a token can be granted. */
export const RPC_METHODS = (Object.keys(RPC_CONTRACTS) as RpcMethodName[]).filter(
  (name) => (RPC_CONTRACTS[name] as RpcMethodContract).grantable !== false
);

/** The permission that grants every method, present and future. */
export const ALL_METHODS = '*';

/** What a token's permission list may hold. */
export const RPC_PERMISSIONS: readonly string[] = [ALL_METHODS, ...RPC_METHODS];
