import type { z } from 'zod';
import type { Readiness } from '$lib/contracts/health';
import {
  RPC_CONTRACTS,
  type RpcMethodContract,
  type RpcMethodName,
  type RpcParams,
  type RpcResult
} from '$lib/contracts/rpc-methods';
import { isDomainError } from '../../errors';
import type { GatewayDeps } from '../gateway.deps';
import { RpcError, RPC_ERRORS } from './jsonrpc';
import type { Caller } from './rpc.auth';
import { openRpcDocument } from './openrpc';

/**
 * The handlers of the JSON-RPC adapter, one per method of the contract table
 * (`$lib/contracts/rpc-methods`: params, result, access, description), which the compiler keeps
 * exhaustive. The same table serves POST /rpc, /rpc/ws and rpc.discover; handlers only call
 * the domain.
 */

/** What a /rpc/ws connection offers to the methods that only make sense there. */
export interface PushChannel {
  subscribe(topics: string[], agentName?: string): string[];
  unsubscribe(topics?: string[]): string[];
}

export interface MethodContext {
  deps: GatewayDeps;
  caller: Caller;
  /** null over HTTP. */
  channel: PushChannel | null;
  /** Readiness, cached for about a second so a burst of system.health pings the engine once. */
  readiness: () => Promise<Readiness>;
}

type Handler<N extends RpcMethodName> = (
  params: RpcParams<N>,
  ctx: MethodContext
) => RpcResult<N> | Promise<RpcResult<N>>;

/** A method as the dispatcher runs it: its contract and its handler. */
export interface RpcMethod extends RpcMethodContract {
  handler(params: z.output<RpcMethodContract['params']>, ctx: MethodContext): unknown;
}

const DEFAULT_LIMIT = 50;

const toMs = (value: number | string | undefined) =>
  value === undefined ? undefined : typeof value === 'number' ? value : Date.parse(value);

/** The promise's value when it settles within `ms`, or null. */
async function waitAtMost<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A reload that found the file invalid: the old configuration stays in force. */
function configError(error: string, issues: string[]): RpcError {
  return new RpcError(RPC_ERRORS.INTERNAL, error, { issues });
}

const HANDLERS: { [N in RpcMethodName]: Handler<N> } = {
  'agent.list': (_p, { deps }) => ({
    agents: deps.agents.list().map(({ name, description, state, provider, model }) => ({
      name,
      description,
      state,
      provider,
      model
    }))
  }),
  'agent.status': (p, { deps }) => deps.agents.status(p.agentName),
  'agent.reload': (p, { deps }) => {
    deps.agents.require(p.agentName);
    try {
      return deps.agents.reload(p.agentName);
    } catch (err) {
      if (isDomainError(err) && err.code === 'INVALID') throw configError(err.message, []);
      throw err;
    }
  },
  'agent.sendMessage': (p, { deps, caller }) => {
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
      userId,
      // Console callers are already named `console:<email>`.
      credential: caller.kind === 'token' ? `token:${caller.name}` : caller.name
    });
    return { messageId, status: 'queued' as const, turnId, sessionId };
  },
  'session.list': (p, { deps }) =>
    deps.chatSessions.list({ agent: p.agentName }, p.limit ?? DEFAULT_LIMIT, p.cursor),
  'session.get': (p, { deps }) =>
    deps.chatSessions.get(p.sessionId, p.limit ?? DEFAULT_LIMIT, p.before),
  'session.compact': (p, { deps }) => deps.chatSessions.compact(p.sessionId),
  'session.delete': (p, { deps }) => deps.chatSessions.delete(p.sessionId),
  'system.health': async (_p, { deps, readiness }) => {
    const [ready, providers] = await Promise.all([readiness(), deps.providerHealth.check()]);
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
  },
  'system.info': (_p, { deps }) => ({
    name: 'berth' as const,
    version: deps.version,
    node: process.version,
    startedAt: deps.startedAt,
    engines: [
      { name: 'default', apiVersion: deps.engine.apiVersion },
      ...deps.config.current.engines.map((e) => ({ name: e.name, apiVersion: null }))
    ],
    agents: deps.agents.list().map((a) => a.name)
  }),
  'system.reload': (_p, { deps }) => {
    const result = deps.reload();
    if (!result.ok) throw configError(result.error, result.issues);
    return { reloaded: true as const, changes: result.changes };
  },
  'usage.stats': (p, { deps }) =>
    deps.usage.stats({
      since: toMs(p.since),
      until: toMs(p.until),
      agentName: p.agentName,
      sessionId: p.sessionId,
      credential: p.credential
    }),
  'event.get': (p, { deps }) => deps.events.get(p.eventId),
  'event.list': (p, { deps }) =>
    deps.events.list(
      { agentName: p.agentName, state: p.state },
      p.limit ?? DEFAULT_LIMIT,
      p.cursor
    ),
  'skill.list': (_p, { deps }) => ({ skills: deps.skills.list() }),
  'skill.trigger': async (p, { deps, caller }) => {
    const { runId, done } = deps.skills.start(p.skillId, p.params ?? {}, {
      trigger: 'rpc',
      actor: caller.name
    });
    const run = await waitAtMost(done, deps.config.current.gateway.rest.skillWaitMs);
    return run
      ? {
          runId,
          skillId: run.skillId,
          status: run.status,
          output: run.output,
          exitCode: run.exitCode,
          durationMs: run.durationMs,
          error: run.error
        }
      : {
          runId,
          skillId: p.skillId,
          status: 'running' as const,
          output: null,
          exitCode: null,
          durationMs: null,
          error: null
        };
  },
  'turn.get': (p, { deps }) => deps.turns.get(p.turnId),
  'turn.cancel': (p, { deps, caller }) => deps.turns.cancel(p.turnId, caller.name),
  'turn.list': (p, { deps }) =>
    deps.turns.list(
      { agentName: p.agentName, state: p.state, sessionId: p.sessionId },
      p.limit ?? DEFAULT_LIMIT,
      p.cursor
    ),
  'events.subscribe': (p, { channel }) => ({
    subscribed: channel!.subscribe(p.topics, p.agentName)
  }),
  'events.unsubscribe': (p, { channel }) => ({ subscribed: channel!.unsubscribe(p.topics) }),
  'rpc.discover': (_p, { deps }) => openRpcDocument(deps.version)
};

/** The method table, in the contract's order (rpc.discover lists them so). */
export const METHODS: ReadonlyMap<string, RpcMethod> = new Map(
  (Object.keys(RPC_CONTRACTS) as RpcMethodName[]).map((name) => [
    name,
    { ...RPC_CONTRACTS[name], handler: HANDLERS[name] }
  ])
);
