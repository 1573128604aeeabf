import { z } from 'zod';
import {
  agentNameSchema,
  eventStateSchema,
  limitSchema,
  turnStateSchema
} from '$lib/contracts/assistant';
import * as results from '$lib/contracts/rpc-results';
import { isDomainError } from '../../errors';
import type { GatewayDeps } from '../gateway.deps';
import { RpcError, RPC_ERRORS } from './jsonrpc';
import { openRpcDocument } from './openrpc';
import type { RpcMethod } from './rpc.method';
import { MAX_TOPICS, topicPattern } from './rpc.topics';

/**
 * The method table of the JSON-RPC adapter: name → params schema (zod, strict: an unknown
 * field is an error, not silently dropped), result schema (from the contracts; the handler's
 * return type must fit it), handler, description. The same table serves POST /rpc, /rpc/ws
 * and rpc.discover; handlers only call the domain.
 */

const define = <S extends z.ZodType, R extends z.ZodType>(m: RpcMethod<S, R>) =>
  m as unknown as RpcMethod;

const DEFAULT_LIMIT = 50;
const id = z.string().min(1).max(200);
const limit = limitSchema.optional().describe('page size, 1 to 200 (default 50)');
const cursor = z.string().min(1).max(400).optional().describe('nextCursor of the previous page');
const none = z.strictObject({});
const instant = z
  .union([z.number().int().min(0), z.iso.datetime({ offset: true }), z.iso.date()])
  .optional()
  .describe('milliseconds since the epoch, or an ISO 8601 date or date-time');

const toMs = (value: number | string | undefined) =>
  value === undefined ? undefined : typeof value === 'number' ? value : Date.parse(value);

/** A reload that found the file invalid: the old configuration stays in force. */
function configError(error: string, issues: string[]): RpcError {
  return new RpcError(RPC_ERRORS.INTERNAL, error, { issues });
}

export const METHODS: ReadonlyMap<string, RpcMethod> = new Map<string, RpcMethod>([
  [
    'agent.list',
    define({
      description: 'List all agents.',
      params: none,
      result: results.agentListResult,
      handler: (_p, { deps }) => ({
        agents: deps.agents.list().map(({ name, description, state, provider, model }) => ({
          name,
          description,
          state,
          provider,
          model
        }))
      })
    })
  ],
  [
    'agent.status',
    define({
      description: 'The state of one agent: queued events, running turns, heartbeats.',
      params: z.strictObject({ agentName: agentNameSchema }),
      result: results.agentStatusResult,
      handler: (p, { deps }) => deps.agents.status(p.agentName)
    })
  ],
  [
    'agent.reload',
    define({
      description:
        "Re-read the configuration file and apply this agent's settings; an invalid file keeps the old configuration (-32603 with the error in data.detail).",
      params: z.strictObject({ agentName: agentNameSchema }),
      result: results.agentReloadResult,
      handler: (p, { deps }) => {
        deps.agents.require(p.agentName);
        try {
          return deps.agents.reload(p.agentName);
        } catch (err) {
          if (isDomainError(err) && err.code === 'INVALID') throw configError(err.message, []);
          throw err;
        }
      }
    })
  ],
  [
    'agent.sendMessage',
    define({
      description:
        'Queue a message for an agent as a turn on session rpc:<channel>:<userId>. channel defaults to "rpc", userId to the token name. Follow it with turn.get or the turn.* topics of /rpc/ws.',
      params: z.strictObject({
        agentName: agentNameSchema,
        channel: z
          .string()
          .regex(/^[A-Za-z0-9._@-]{1,64}$/, 'letters, digits, . _ @ - only (at most 64)')
          .optional(),
        userId: z.string().min(1).max(128).optional(),
        message: z.string().min(1).max(100_000)
      }),
      result: results.agentSendMessageResult,
      handler: (p, { deps, caller }) => {
        const channel = p.channel ?? 'rpc';
        const userId = p.userId ?? caller.name;
        const { messageId, turnId, sessionId } = deps.turns.enqueue({
          agentName: p.agentName,
          sessionKey: `rpc:${channel}:${userId}`,
          input: p.message,
          source: 'rpc',
          // A token or console user allowed this method; with auth.type none nobody signed in.
          trust: caller.kind === 'anonymous' ? 'external' : 'operator',
          channel,
          userId
        });
        return { messageId, status: 'queued' as const, turnId, sessionId };
      }
    })
  ],
  [
    'session.list',
    define({
      description: 'List sessions, most recently updated first.',
      params: z.strictObject({ agentName: agentNameSchema.optional(), limit, cursor }),
      result: results.sessionListResult,
      handler: (p, { deps }) =>
        deps.chatSessions.list(p.agentName, p.limit ?? DEFAULT_LIMIT, p.cursor)
    })
  ],
  [
    'session.get',
    define({
      description:
        'A session and its newest messages (oldest first); before is a messageId to page back.',
      params: z.strictObject({ sessionId: id, limit, before: id.optional() }),
      result: results.sessionGetResult,
      handler: (p, { deps }) =>
        deps.chatSessions.get(p.sessionId, p.limit ?? DEFAULT_LIMIT, p.before)
    })
  ],
  [
    'session.compact',
    define({
      description: 'Fold older messages of a session into its summary.',
      params: z.strictObject({ sessionId: id }),
      result: results.sessionCompactResult,
      handler: (p, { deps }) => deps.chatSessions.compact(p.sessionId)
    })
  ],
  [
    'session.delete',
    define({
      description: 'Delete a session and its messages.',
      params: z.strictObject({ sessionId: id }),
      result: results.sessionDeleteResult,
      handler: (p, { deps }) => deps.chatSessions.delete(p.sessionId)
    })
  ],
  [
    'system.health',
    define({
      description: 'Health of the database, the container engine and the agents’ providers.',
      params: none,
      result: results.systemHealthResult,
      handler: async (_p, { deps, readiness }) => {
        const ready = await readiness();
        const providers = providerCheck(deps);
        const status: 'ok' | 'degraded' =
          ready.checks.database.status === 'ok' &&
          ready.checks.engine.status === 'ok' &&
          providers.status === 'ok'
            ? 'ok'
            : 'degraded';
        return {
          status,
          checks: { database: ready.checks.database, engine: ready.checks.engine, providers }
        };
      }
    })
  ],
  [
    'system.info',
    define({
      description: 'Name, version, Node.js version, start time, engines and agents.',
      params: none,
      result: results.systemInfoResult,
      handler: (_p, { deps }) => ({
        name: 'berth' as const,
        version: deps.version,
        node: process.version,
        startedAt: deps.startedAt,
        engines: [
          { name: 'default', apiVersion: deps.engine.apiVersion },
          ...deps.config.current.engines.map((e) => ({ name: e.name, apiVersion: null }))
        ],
        agents: deps.agents.list().map((a) => a.name)
      })
    })
  ],
  [
    'system.reload',
    define({
      description:
        'Re-read the configuration file. An invalid file keeps the old configuration and answers -32603 with the error in data.detail (and data.issues).',
      params: none,
      result: results.systemReloadResult,
      handler: (_p, { deps }) => {
        const result = deps.reload();
        if (!result.ok) throw configError(result.error, result.issues);
        return { reloaded: true as const, changes: result.changes };
      }
    })
  ],
  [
    'usage.stats',
    define({
      description:
        'Messages, turns and tokens in [since, until), by agent and by day (UTC), plus request counts per interface.',
      params: z.strictObject({
        since: instant,
        until: instant,
        agentName: agentNameSchema.optional()
      }),
      result: results.usageStatsResult,
      handler: (p, { deps }) =>
        deps.usage.stats({
          since: toMs(p.since),
          until: toMs(p.until),
          agentName: p.agentName
        })
    })
  ],
  [
    'event.get',
    define({
      description: 'A system event queued by /wake, and the turn that handled it.',
      params: z.strictObject({ eventId: id }),
      result: results.eventGetResult,
      handler: (p, { deps }) => deps.events.get(p.eventId)
    })
  ],
  [
    'event.list',
    define({
      description: 'System events, newest first.',
      params: z.strictObject({
        agentName: agentNameSchema.optional(),
        state: eventStateSchema.optional(),
        limit,
        cursor
      }),
      result: results.eventListResult,
      handler: (p, { deps }) =>
        deps.events.list(
          { agentName: p.agentName, state: p.state },
          p.limit ?? DEFAULT_LIMIT,
          p.cursor
        )
    })
  ],
  [
    'turn.get',
    define({
      description: 'One turn: state, result or error, token usage.',
      params: z.strictObject({ turnId: id }),
      result: results.turnGetResult,
      handler: (p, { deps }) => deps.turns.get(p.turnId)
    })
  ],
  [
    'turn.list',
    define({
      description: 'Turns, newest first.',
      params: z.strictObject({
        agentName: agentNameSchema.optional(),
        state: turnStateSchema.optional(),
        sessionId: id.optional(),
        limit,
        cursor
      }),
      result: results.turnListResult,
      handler: (p, { deps }) =>
        deps.turns.list(
          { agentName: p.agentName, state: p.state, sessionId: p.sessionId },
          p.limit ?? DEFAULT_LIMIT,
          p.cursor
        )
    })
  ],
  [
    'events.subscribe',
    define({
      description:
        '/rpc/ws only: receive {"jsonrpc":"2.0","method":"notify","params":{topic,data}} for these topics: exact names (turn.completed, message.delta …), groups (turn.*, message.*, event.*, session.*, agent.*) or *; optionally for one agent.',
      wsOnly: true,
      params: z.strictObject({
        topics: z.array(topicPattern).min(1).max(MAX_TOPICS),
        agentName: agentNameSchema.optional()
      }),
      result: results.subscriptionResult,
      handler: (p, { channel }) => ({ subscribed: channel!.subscribe(p.topics, p.agentName) })
    })
  ],
  [
    'events.unsubscribe',
    define({
      description: '/rpc/ws only: stop these topics (all when topics is omitted).',
      wsOnly: true,
      params: z.strictObject({ topics: z.array(z.string().max(64)).max(MAX_TOPICS).optional() }),
      result: results.subscriptionResult,
      handler: (p, { channel }) => ({ subscribed: channel!.unsubscribe(p.topics) })
    })
  ],
  [
    'rpc.discover',
    define({
      description: 'This API as an OpenRPC document.',
      params: none,
      result: results.discoverResult,
      handler: (_p, { deps }) => openRpcDocument(METHODS, deps.version)
    })
  ]
]);

/** Whether every enabled agent's provider can run; from the definitions, not state (no SQL). */
function providerCheck(deps: GatewayDeps): { status: 'ok' | 'error'; detail?: string } {
  const broken: string[] = [];
  for (const agent of deps.agents.all()) {
    if (agent.disabled) continue;
    try {
      deps.agents.provider(agent);
    } catch {
      broken.push(`${agent.name}: provider ${agent.provider} is not available`);
    }
  }
  return broken.length ? { status: 'error', detail: broken.join('; ') } : { status: 'ok' };
}
