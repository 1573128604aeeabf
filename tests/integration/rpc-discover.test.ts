import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RPC_METHODS } from '$lib/contracts/rpc-methods';
import * as results from '$lib/contracts/rpc-results';
import { hook, TOKEN } from '../fixtures/webhooks';
import { startBerth, type Berth } from './helpers/berth';
import { berthConfig, OPS, rpcToken } from './helpers/config';
import { callRpc } from './helpers/rpc';
import { closed, openRpcWs, rpcCall } from './helpers/sockets';

/**
 * rpc.discover describes every result, and what it describes is what the methods answer:
 * each real answer below is validated by the (strict) zod schema from the contracts, and the
 * document publishes exactly that schema as JSON Schema. No JSON Schema validator is installed,
 * so the zod schema the document is generated from does the validating.
 */
const CONFIG = berthConfig({
  rpcTokens: [rpcToken('ops', OPS)],
  webhookToken: TOKEN,
  agents: [{ name: 'main', provider: 'builtin', heartbeatMs: 1000 }]
});

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: unknown;
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
};
interface DiscoveredMethod {
  name: string;
  result: { name: string; schema: JsonSchema };
}

/** The conversion the document claims to be made with: draft 7, the output side of the schema. */
function published(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'output',
    target: 'draft-7',
    unrepresentable: 'any'
  }) as JsonSchema & { $schema?: string };
  return rest;
}

describe('rpc.discover result schemas', () => {
  let berth: Berth;
  let methods: Map<string, DiscoveredMethod>;

  async function call(method: string, params: object = {}): Promise<unknown> {
    const answer = await callRpc(berth, OPS, method, params);
    expect(answer.error, `${method}: ${JSON.stringify(answer.error)}`).toBeUndefined();
    return answer.result;
  }

  /** The real answer fits the contract's schema, and the document publishes that schema. */
  function expectDescribed(method: string, schema: z.ZodType, answer: unknown): void {
    const parsed = schema.safeParse(answer);
    expect(parsed.error?.issues, `${method} answered ${JSON.stringify(answer)}`).toBeUndefined();
    expect(methods.get(method)?.result.schema, method).toEqual(published(schema));
  }

  beforeAll(async () => {
    berth = await startBerth({ config: CONFIG });
    const doc = (await call('rpc.discover')) as { methods: DiscoveredMethod[] };
    methods = new Map(doc.methods.map((m) => [m.name, m]));
  });
  afterAll(() => berth.stop());

  it('gives every method an object result with its properties, not a bare placeholder', () => {
    for (const name of [...RPC_METHODS, 'events.unsubscribe']) {
      const schema = methods.get(name)?.result.schema;
      expect(schema?.type, name).toBe('object');
      expect(Object.keys(schema?.properties ?? {}).length, name).toBeGreaterThan(0);
      expect(schema?.required?.length, name).toBeGreaterThan(0);
    }
    const turn = methods.get('turn.get')!.result.schema;
    expect(turn.required).toEqual([
      'turnId',
      'sessionId',
      'agentName',
      'state',
      'source',
      'queuedAt',
      'startedAt',
      'finishedAt',
      'result',
      'error',
      'usage'
    ]);
    expect(turn.properties?.state?.enum).toEqual([
      'queued',
      'running',
      'completed',
      'failed',
      'cancelled'
    ]);
    expect(turn.additionalProperties).toBe(false);
    expect(turn.properties?.finishedAt?.anyOf?.map((s) => s.type)).toEqual(['integer', 'null']);
    const list = methods.get('turn.list')!.result.schema;
    expect(list.properties?.turns?.items).toEqual(turn);
    expect(methods.get('agent.sendMessage')!.result.schema.required).toEqual([
      'messageId',
      'status',
      'turnId',
      'sessionId'
    ]);
    const health = methods.get('system.health')!.result.schema;
    expect(health.properties?.status?.enum).toEqual(['ok', 'degraded']);
    expect(Object.keys(health.properties?.checks?.properties ?? {})).toEqual([
      'database',
      'engine',
      'providers'
    ]);
    const stats = methods.get('usage.stats')!.result.schema;
    expect(stats.required).toEqual([
      'messages',
      'turns',
      'tokens',
      'byAgent',
      'byDay',
      'byCredential',
      'bySession',
      'requests'
    ]);
  });

  it('the schemas are strict: a field too many or a wrong state fails them', async () => {
    const sent = (await call('agent.sendMessage', { agentName: 'main', message: 'x' })) as {
      turnId: string;
    };
    const turn = (await call('turn.get', { turnId: sent.turnId })) as Record<string, unknown>;
    expect(results.turnGetResult.safeParse(turn).success).toBe(true);
    expect(results.turnGetResult.safeParse({ ...turn, secret: 1 }).success).toBe(false);
    expect(results.turnGetResult.safeParse({ ...turn, state: 'paused' }).success).toBe(false);
    const { usage: _usage, ...withoutUsage } = turn;
    expect(results.turnGetResult.safeParse(withoutUsage).success).toBe(false);
  });

  it('agents, turns, sessions, usage and the system answer as described', async () => {
    expectDescribed('agent.list', results.agentListResult, await call('agent.list'));
    expectDescribed(
      'agent.status',
      results.agentStatusResult,
      await call('agent.status', { agentName: 'main' })
    );

    const sent = await call('agent.sendMessage', {
      agentName: 'main',
      channel: 'discover',
      userId: 'u1',
      message: 'help'
    });
    expectDescribed('agent.sendMessage', results.agentSendMessageResult, sent);
    const { turnId, sessionId } = sent as { turnId: string; sessionId: string };
    const done = await untilAsync(async () => {
      const turn = (await call('turn.get', { turnId })) as { state: string };
      return turn.state === 'completed' && turn;
    });
    expectDescribed('turn.get', results.turnGetResult, done);
    expectDescribed('turn.list', results.turnListResult, await call('turn.list', { limit: 5 }));

    const sessions = await call('session.list', { agentName: 'main' });
    expectDescribed('session.list', results.sessionListResult, sessions);
    expect((sessions as { sessions: unknown[] }).sessions.length).toBeGreaterThan(0);
    const session = await call('session.get', { sessionId });
    expectDescribed('session.get', results.sessionGetResult, session);
    expect((session as { messages: unknown[] }).messages.length).toBe(2);
    expectDescribed(
      'session.compact',
      results.sessionCompactResult,
      await call('session.compact', { sessionId })
    );
    expectDescribed(
      'session.delete',
      results.sessionDeleteResult,
      await call('session.delete', { sessionId })
    );

    const stats = await call('usage.stats', { since: '2020-01-01' });
    expectDescribed('usage.stats', results.usageStatsResult, stats);
    expect((stats as { byDay: unknown[] }).byDay.length).toBeGreaterThan(0);
    expect((stats as { requests: unknown[] }).requests.length).toBeGreaterThan(0);

    expectDescribed('system.health', results.systemHealthResult, await call('system.health'));
    expectDescribed('system.info', results.systemInfoResult, await call('system.info'));
    expectDescribed('system.reload', results.systemReloadResult, await call('system.reload'));
    expectDescribed(
      'agent.reload',
      results.agentReloadResult,
      await call('agent.reload', { agentName: 'main' })
    );
    expectDescribed('rpc.discover', results.discoverResult, await call('rpc.discover'));
  });

  it('events, from a wake to the heartbeat turn, answer as described', async () => {
    const woke = await hook(berth.port, '/hooks/wake', {
      text: 'deploy finished',
      metadata: { source: 'ci', run: 7 }
    });
    expect(woke.status).toBe(200);
    const eventId = woke.json.eventId as string;
    const queued = await call('event.get', { eventId });
    expectDescribed('event.get', results.eventGetResult, queued);
    const handled = await untilAsync(async () => {
      const event = (await call('event.get', { eventId })) as { state: string };
      return event.state === 'done' && event;
    });
    expectDescribed('event.get', results.eventGetResult, handled);
    expect(handled).toMatchObject({ turnId: expect.any(String) as string });
    expectDescribed('event.list', results.eventListResult, await call('event.list', { limit: 1 }));
  });

  it('the /rpc/ws subscriptions answer as described', async () => {
    const ws = await openRpcWs(berth, { authorization: `Bearer ${OPS}` });
    try {
      const request = (method: string, params: object) =>
        JSON.stringify({ jsonrpc: '2.0', id: method, method, params });
      const sub = (await rpcCall(ws, request('events.subscribe', { topics: ['turn.*'] }))) as {
        result: unknown;
      };
      expectDescribed('events.subscribe', results.subscriptionResult, sub.result);
      const unsub = (await rpcCall(ws, request('events.unsubscribe', {}))) as { result: unknown };
      expectDescribed('events.unsubscribe', results.subscriptionResult, unsub.result);
    } finally {
      ws.close();
      await closed(ws);
    }
  });
});

/** Polls an async read until it gives something truthy (10 s at most). */
async function untilAsync<T>(read: () => Promise<T | false>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met within 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}
