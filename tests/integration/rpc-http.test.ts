import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { RPC_METHODS } from '$lib/contracts/rpc-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBerth, trpc, type Berth } from './helpers/berth';
import { startWithAdmin } from './helpers/console';
import { closed, openRpcWs } from './helpers/sockets';

const OPS = 'ops-token-0123456789abcdef';
const RO = 'readonly-token-0123456789ab';
const CONFIG = `gateway:
  rpc:
    enabled: true
    auth:
      type: bearer
      tokens:
        - { name: ops, token: "${OPS}", permissions: ["*"] }
        - { name: readonly, token: "${RO}", permissions: [agent.list, session.list, system.health] }
agents:
  - { name: main, provider: builtin, heartbeatMs: 30000 }
`;

type Answer = {
  jsonrpc: '2.0';
  id: unknown;
  result?: Record<string, unknown> & Record<string, never>;
  error?: { code: number; message: string; data?: { detail: string; issues?: string[] } };
};

async function post(
  berth: Berth,
  body: string,
  token: string | null = OPS,
  headers: Record<string, string> = {}
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(`${berth.url}/rpc`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers
    },
    body
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** One call; returns the whole answer object. */
async function call(
  berth: Berth,
  method: string,
  params: unknown = {},
  token: string | null = OPS
): Promise<Answer> {
  const res = await post(berth, JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }), token);
  expect(res.status).toBe(200);
  return JSON.parse(res.text) as Answer;
}

async function result<T = Record<string, unknown>>(
  berth: Berth,
  method: string,
  params: unknown = {}
): Promise<T> {
  const answer = await call(berth, method, params);
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result as T;
}

async function turnDone(berth: Berth, turnId: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const turn = await result(berth, 'turn.get', { turnId });
    if (turn.state === 'completed' || turn.state === 'failed') return turn;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`turn ${turnId} did not finish`);
}

describe('POST /rpc', () => {
  let berth: Berth;
  let admin: string;
  beforeAll(async () => ({ berth, admin } = await startWithAdmin({ config: CONFIG })));
  afterAll(() => berth.stop());

  it('authenticates with a bearer token: 401 + WWW-Authenticate + -32000 otherwise', async () => {
    for (const token of [null, 'not-a-valid-token-at-all']) {
      const res = await post(berth, '{"jsonrpc":"2.0","method":"agent.list","id":1}', token);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(JSON.parse(res.text)).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'Authentication Error' }
      });
    }
    const basic = await post(berth, '{"jsonrpc":"2.0","method":"agent.list","id":1}', null, {
      authorization: `Basic ${Buffer.from(`x:${OPS}`).toString('base64')}`
    });
    expect(basic.status).toBe(401);
  });

  it('answers transport errors with HTTP statuses: 405, 415, 413; parse errors with 200', async () => {
    const get = await fetch(`${berth.url}/rpc`, { headers: { authorization: `Bearer ${OPS}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const text = await post(berth, '{"jsonrpc":"2.0","method":"agent.list","id":1}', OPS, {
      'content-type': 'text/plain'
    });
    expect(text.status).toBe(415);
    expect(JSON.parse(text.text)).toMatchObject({ error: { code: -32600 } });
    const big = await post(berth, JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) }));
    expect(big.status).toBe(413);
    const parse = await post(berth, '{"jsonrpc":"2.0","method":"foobar, "params":"bar", "baz]');
    expect(parse.status).toBe(200);
    expect(JSON.parse(parse.text)).toMatchObject({ id: null, error: { code: -32700 } });
    const deep = await post(berth, `${'['.repeat(40)}${']'.repeat(40)}`);
    expect(JSON.parse(deep.text)).toMatchObject({ id: null, error: { code: -32700 } });
    expect((await fetch(`${berth.url}/rpc/other`, { method: 'POST' })).status).toBe(404);
  });

  it('answers 413 to a chunked body far over the limit sent at once, not a reset', async () => {
    const head = [
      'POST /rpc HTTP/1.1',
      `Host: 127.0.0.1:${berth.port}`,
      'Content-Type: application/json',
      `Authorization: Bearer ${OPS}`,
      'Transfer-Encoding: chunked',
      '',
      ''
    ].join('\r\n');
    const chunk = 'x'.repeat(256 * 1024);
    const framed = `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    for (let round = 0; round < 10; round++) {
      // 64 chunks, sixteen times the limit, written without waiting. The server half-closes
      // after its 413 and reads what still comes (closed at once, it reset the connection, and
      // this client lost the 413 to EPIPE on its next write within 30 rounds, each time tried).
      const received = await new Promise<string>((done) => {
        const socket = connect(berth.port, '127.0.0.1');
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString()));
        socket.on('error', () => undefined);
        socket.on('close', () => done(text));
        socket.write(head);
        for (let i = 0; i < 64; i++) socket.write(framed);
        socket.end('0\r\n\r\n');
      });
      expect(received.startsWith('HTTP/1.1 413')).toBe(true);
      expect(received.toLowerCase()).toContain('connection: close');
    }
  });

  it('reads a body that arrives with its headers and one that trickles in after them', async () => {
    const body = '{"jsonrpc":"2.0","method":"system.health","params":{},"id":"slow"}';
    const head = [
      'POST /rpc HTTP/1.1',
      `Host: 127.0.0.1:${berth.port}`,
      'Content-Type: application/json',
      `Authorization: Bearer ${OPS}`,
      `Content-Length: ${body.length}`,
      '',
      ''
    ].join('\r\n');
    const answer = (parts: string[]) =>
      new Promise<string>((done, fail) => {
        const socket = connect(berth.port, '127.0.0.1');
        let text = '';
        socket.on('data', (d: Buffer) => {
          text += d.toString();
          if (text.includes('"id":"slow"}')) {
            socket.end();
            done(text);
          }
        });
        socket.on('error', fail);
        void (async () => {
          for (const part of parts) {
            socket.write(part);
            await new Promise((r) => setTimeout(r, 60));
          }
        })();
      });
    for (const parts of [[head + body], [head, body.slice(0, 20), body.slice(20)]]) {
      const text = await answer(parts);
      expect(text.startsWith('HTTP/1.1 200')).toBe(true);
      expect(text).toContain('"result":{"status"');
    }
  });

  it('follows the JSON-RPC 2.0 specification examples (params by name only)', async () => {
    // rpc call with named parameters / positional parameters (not supported: -32602)
    expect(
      JSON.parse(
        (
          await post(
            berth,
            '{"jsonrpc":"2.0","method":"agent.status","params":{"agentName":"main"},"id":3}'
          )
        ).text
      )
    ).toMatchObject({ jsonrpc: '2.0', result: { name: 'main' }, id: 3 });
    expect(
      JSON.parse(
        (await post(berth, '{"jsonrpc":"2.0","method":"agent.status","params":["main"],"id":4}'))
          .text
      )
    ).toMatchObject({ error: { code: -32602 }, id: 4 });
    // params that are not structured: an invalid Request (-32600), alone and in a batch
    for (const params of ['"bar"', '5'])
      expect(
        JSON.parse(
          (await post(berth, `{"jsonrpc":"2.0","method":"agent.status","params":${params},"id":5}`))
            .text
        )
      ).toMatchObject({ error: { code: -32600, message: 'Invalid Request' }, id: 5 });
    expect(
      (
        JSON.parse(
          (
            await post(
              berth,
              '[{"jsonrpc":"2.0","method":"agent.list","params":"bar","id":1},{"jsonrpc":"2.0","method":"agent.list","params":{},"id":2}]'
            )
          ).text
        ) as Answer[]
      ).map((a) => [a.id, a.error?.code ?? 'ok'])
    ).toEqual([
      [1, -32600],
      [2, 'ok']
    ]);
    // a notification: no answer at all
    const note = await post(berth, '{"jsonrpc":"2.0","method":"agent.list","params":{}}');
    expect(note.status).toBe(204);
    expect(note.text).toBe('');
    // non-existent method
    expect(
      JSON.parse((await post(berth, '{"jsonrpc":"2.0","method":"foobar","id":"1"}')).text)
    ).toMatchObject({ error: { code: -32601, message: 'Method not found' }, id: '1' });
    // invalid Request object
    expect(
      JSON.parse((await post(berth, '{"jsonrpc":"2.0","method":1,"params":"bar"}')).text)
    ).toMatchObject({ error: { code: -32600 }, id: null });
    // batch, invalid JSON
    expect(
      JSON.parse(
        (
          await post(
            berth,
            '[{"jsonrpc":"2.0","method":"agent.list","params":{},"id":"1"},{"jsonrpc":"2.0","method"]'
          )
        ).text
      )
    ).toMatchObject({ error: { code: -32700 }, id: null });
    // empty array; an invalid batch of one; an invalid batch of three
    expect(JSON.parse((await post(berth, '[]')).text)).toMatchObject({
      error: { code: -32600 },
      id: null
    });
    expect(JSON.parse((await post(berth, '[1]')).text)).toEqual([
      {
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: 'Invalid Request',
          data: { detail: 'request must be an object' }
        },
        id: null
      }
    ]);
    const three = JSON.parse((await post(berth, '[1,2,3]')).text) as Answer[];
    expect(three.map((a) => a.error?.code)).toEqual([-32600, -32600, -32600]);
    // mixed batch
    const mixed = JSON.parse(
      (
        await post(
          berth,
          JSON.stringify([
            { jsonrpc: '2.0', method: 'agent.status', params: { agentName: 'main' }, id: '1' },
            { jsonrpc: '2.0', method: 'agent.list', params: {} },
            { jsonrpc: '2.0', method: 'agent.status', params: { agentName: 'nobody' }, id: '2' },
            { foo: 'boo' },
            { jsonrpc: '2.0', method: 'foo.get', params: { name: 'myself' }, id: '5' },
            { jsonrpc: '2.0', method: 'system.info', id: '9' }
          ])
        )
      ).text
    ) as Answer[];
    expect(mixed.map((a) => [a.id, a.error?.code ?? 'ok'])).toEqual([
      ['1', 'ok'],
      ['2', -32602],
      [null, -32600],
      ['5', -32601],
      ['9', 'ok']
    ]);
    // batch of notifications only
    const notes = await post(
      berth,
      '[{"jsonrpc":"2.0","method":"agent.list","params":{}},{"jsonrpc":"2.0","method":"system.info"}]'
    );
    expect(notes.status).toBe(204);
    // more than 100 entries
    const many = JSON.stringify(
      Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', method: 'agent.list', id: i }))
    );
    expect(JSON.parse((await post(berth, many)).text)).toMatchObject({ error: { code: -32600 } });
  });

  it('echoes string, integer and null ids with their type and refuses others', async () => {
    for (const id of ['abc', 0, -7, 2 ** 53 - 1, null]) {
      const answer = JSON.parse(
        (await post(berth, JSON.stringify({ jsonrpc: '2.0', method: 'agent.list', id }))).text
      ) as Answer;
      expect(answer.id).toStrictEqual(id);
      expect(answer.result).toBeDefined();
    }
    for (const id of ['1.5', '{"a":1}', '[1]', 'true', String(2 ** 53)]) {
      const answer = JSON.parse(
        (await post(berth, `{"jsonrpc":"2.0","method":"agent.list","id":${id}}`)).text
      ) as Answer;
      expect(answer, id).toMatchObject({ id: null, error: { code: -32600 } });
    }
  });

  it('validates params: -32602 naming the field; sendMessage without agentName is -32600', async () => {
    expect(
      await call(berth, 'agent.sendMessage', { channel: 'c', userId: 'u', message: 'hi' })
    ).toMatchObject({ error: { code: -32600, data: { detail: 'agentName is required' } } });
    expect(await call(berth, 'agent.status', {})).toMatchObject({
      error: { code: -32602, message: 'Invalid params', data: { detail: 'agentName is required' } }
    });
    expect(await call(berth, 'session.list', { limit: 0 })).toMatchObject({
      error: { code: -32602, data: { detail: expect.stringContaining('limit') as string } }
    });
    expect(await call(berth, 'agent.list', { surprise: 1 })).toMatchObject({
      error: { code: -32602, data: { detail: expect.stringContaining('surprise') as string } }
    });
    expect(await call(berth, 'agent.status', { agentName: 'nobody' })).toMatchObject({
      error: { code: -32602, data: { detail: 'Agent nobody not found' } }
    });
    expect(await call(berth, 'session.list', { cursor: 'garbage' })).toMatchObject({
      error: { code: -32602, data: { detail: 'cursor is not valid' } }
    });
    expect(await call(berth, 'events.subscribe', { topics: ['turn.*'] })).toMatchObject({
      error: { code: -32601, data: { detail: 'events.subscribe is only available on /rpc/ws' } }
    });
  });

  it('agent.list, agent.status, agent.reload', async () => {
    expect(await result(berth, 'agent.list')).toEqual({
      agents: [{ name: 'main', description: '', state: 'idle', provider: 'builtin', model: null }]
    });
    expect(await result(berth, 'agent.status', { agentName: 'main' })).toMatchObject({
      name: 'main',
      state: expect.any(String) as string,
      queuedEvents: 0,
      runningTurns: expect.any(Number) as number,
      lastHeartbeatAt: expect.any(Number) as number,
      nextHeartbeatAt: expect.any(Number) as number
    });
    expect(await result(berth, 'agent.reload', { agentName: 'main' })).toEqual({
      name: 'main',
      reloaded: true
    });
  });

  it('agent.sendMessage queues a turn that completes with the builtin reply', async () => {
    const sent = await result<{
      messageId: string;
      status: string;
      turnId: string;
      sessionId: string;
    }>(berth, 'agent.sendMessage', {
      agentName: 'main',
      channel: 'slack',
      userId: 'u1',
      message: 'hello berth'
    });
    expect(sent).toMatchObject({ status: 'queued', messageId: expect.any(String) as string });
    const turn = await turnDone(berth, sent.turnId);
    expect(turn).toMatchObject({
      state: 'completed',
      source: 'rpc',
      agentName: 'main',
      sessionId: sent.sessionId,
      result: expect.stringContaining('Received: “hello berth”') as string
    });
    const session = await result<{
      session: { key: string; messageCount: number };
      messages: { messageId: string; role: string; content: string; userId: string | null }[];
    }>(berth, 'session.get', { sessionId: sent.sessionId });
    expect(session.session).toMatchObject({ key: 'rpc:slack:u1', messageCount: 2 });
    expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(session.messages[0]).toMatchObject({
      messageId: sent.messageId,
      content: 'hello berth',
      userId: 'u1'
    });
    const turns = await result<{ turns: { turnId: string }[] }>(berth, 'turn.list', {
      sessionId: sent.sessionId
    });
    expect(turns.turns.map((t) => t.turnId)).toEqual([sent.turnId]);
    expect(await call(berth, 'turn.get', { turnId: 'nope' })).toMatchObject({
      error: { code: -32602, data: { detail: 'Turn not found' } }
    });
  });

  it('session.list pages, session.compact summarises, session.delete removes', async () => {
    let sessionId = '';
    for (let i = 0; i < 5; i++) {
      const sent = await result<{ turnId: string; sessionId: string }>(berth, 'agent.sendMessage', {
        agentName: 'main',
        channel: 'ops',
        userId: 'compactor',
        message: `message number ${i}`
      });
      sessionId = sent.sessionId;
      await turnDone(berth, sent.turnId);
    }
    await result(berth, 'agent.sendMessage', {
      agentName: 'main',
      channel: 'ops',
      userId: 'other',
      message: 'x'
    });
    const page = await result<{ sessions: { sessionId: string }[]; nextCursor: string | null }>(
      berth,
      'session.list',
      { agentName: 'main', limit: 1 }
    );
    expect(page.sessions).toHaveLength(1);
    expect(page.nextCursor).toEqual(expect.any(String));
    const next = await result<{ sessions: { sessionId: string }[] }>(berth, 'session.list', {
      agentName: 'main',
      limit: 1,
      cursor: page.nextCursor
    });
    expect(next.sessions[0]!.sessionId).not.toBe(page.sessions[0]!.sessionId);

    const compacted = await result<{
      sessionId: string;
      compactedMessages: number;
      summary: string;
    }>(berth, 'session.compact', { sessionId });
    expect(compacted.sessionId).toBe(sessionId);
    expect(compacted.compactedMessages).toBe(6);
    expect(compacted.summary).toContain('user: message number 0');
    const after = await result<{
      session: { summary: string; messageCount: number };
      messages: { compactedBy: string | null }[];
    }>(berth, 'session.get', { sessionId });
    // Compaction keeps the originals: all ten are there, six of them marked.
    expect(after.messages).toHaveLength(10);
    expect(after.messages.filter((m) => m.compactedBy !== null)).toHaveLength(6);
    expect(after.session.messageCount).toBe(10);
    expect(after.session.summary).toBe(compacted.summary);

    expect(await result(berth, 'session.delete', { sessionId })).toEqual({
      sessionId,
      deleted: true
    });
    expect(await call(berth, 'session.get', { sessionId })).toMatchObject({
      error: { code: -32602, data: { detail: 'Session not found' } }
    });
    expect(await call(berth, 'session.delete', { sessionId })).toMatchObject({
      error: { code: -32602 }
    });
  });

  it('system.health, system.info, event.list/get and rpc.discover', async () => {
    const health = await result<{ status: string; checks: Record<string, { status: string }> }>(
      berth,
      'system.health'
    );
    expect(['ok', 'degraded']).toContain(health.status);
    expect(health.checks.database!.status).toBe('ok');
    expect(health.checks.providers!.status).toBe('ok');
    expect(health.checks.engine).toBeDefined();
    expect(health.status === 'ok').toBe(health.checks.engine!.status === 'ok');
    expect(await result(berth, 'system.info')).toMatchObject({
      name: 'berth',
      version: expect.any(String) as string,
      node: process.version,
      startedAt: expect.any(Number) as number,
      engines: [{ name: 'default' }],
      agents: ['main']
    });
    expect(await result(berth, 'event.list', { agentName: 'main' })).toEqual({
      events: [],
      nextCursor: null
    });
    expect(await call(berth, 'event.get', { eventId: 'nope' })).toMatchObject({
      error: { code: -32602, data: { detail: 'Event not found' } }
    });
    expect(await call(berth, 'event.list', { state: 'weird' })).toMatchObject({
      error: { code: -32602, data: { detail: expect.stringContaining('state') as string } }
    });
    const doc = await result<{
      openrpc: string;
      methods: { name: string; params: { name: string; required: boolean }[] }[];
    }>(berth, 'rpc.discover');
    expect(doc.openrpc).toMatch(/^1\./);
    const names = doc.methods.map((m) => m.name);
    for (const m of RPC_METHODS) expect(names).toContain(m);
    const send = doc.methods.find((m) => m.name === 'agent.sendMessage')!;
    expect(send.params).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'agentName', required: true }),
        expect.objectContaining({ name: 'message', required: true }),
        expect.objectContaining({ name: 'channel', required: false })
      ])
    );
  });

  it('usage.stats counts messages, turns and tokens by agent and day', async () => {
    const before = await result<{ turns: number; messages: number }>(berth, 'usage.stats', {
      agentName: 'main'
    });
    // The turn's day is between these two (a run may cross midnight UTC).
    const dayBefore = new Date().toISOString().slice(0, 10);
    const sent = await result<{ turnId: string }>(berth, 'agent.sendMessage', {
      agentName: 'main',
      channel: 'stats',
      userId: 'u',
      message: 'count me'
    });
    await turnDone(berth, sent.turnId);
    const stats = await result<{
      turns: number;
      messages: number;
      tokens: { prompt: number; completion: number };
      byAgent: Record<string, { turns: number }>;
      byDay: { day: string; turns: number }[];
    }>(berth, 'usage.stats', {
      agentName: 'main',
      since: new Date(Date.now() - 3600_000).toISOString()
    });
    expect(stats.turns).toBeGreaterThanOrEqual(1);
    const all = await result<{ turns: number; messages: number }>(berth, 'usage.stats', {
      agentName: 'main'
    });
    expect(all.turns).toBe(before.turns + 1);
    expect(all.messages).toBe(before.messages + 2);
    expect(stats.tokens.completion).toBeGreaterThan(0);
    expect(stats.byAgent.main!.turns).toBe(stats.turns);
    expect([dayBefore, new Date().toISOString().slice(0, 10)]).toContain(stats.byDay.at(-1)!.day);
    const future = await result<{ turns: number }>(berth, 'usage.stats', {
      since: Date.now() + 86_400_000
    });
    expect(future.turns).toBe(0);
    expect(await call(berth, 'usage.stats', { since: 'yesterday' })).toMatchObject({
      error: { code: -32602, data: { detail: expect.stringContaining('since') as string } }
    });
  });

  it('permissions: the read-only token calls its three methods, -32001 naming any other', async () => {
    expect((await call(berth, 'agent.list', {}, RO)).result).toBeDefined();
    expect((await call(berth, 'session.list', {}, RO)).result).toBeDefined();
    expect((await call(berth, 'system.health', {}, RO)).result).toBeDefined();
    expect(await call(berth, 'agent.sendMessage', { agentName: 'main', message: 'x' }, RO)).toEqual(
      {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32001,
          message: 'Permission Denied',
          data: { detail: 'not permitted to call agent.sendMessage' }
        }
      }
    );
    const batch = JSON.parse(
      (
        await post(
          berth,
          JSON.stringify([
            { jsonrpc: '2.0', method: 'agent.list', id: 1 },
            { jsonrpc: '2.0', method: 'system.reload', id: 2 }
          ]),
          RO
        )
      ).text
    ) as Answer[];
    expect(batch[0]!.result).toBeDefined();
    expect(batch[1]!.error).toMatchObject({
      code: -32001,
      data: { detail: 'not permitted to call system.reload' }
    });
  });

  it('tokens made in the console work at once and stop working at once', async () => {
    const created = await trpc(berth, admin, 'credentials.rpcTokens.create', {
      name: 'made-in-console',
      permissions: ['agent.list']
    });
    expect(created.status).toBe(200);
    const token = created.body.result!.data as { id: string; token: string };
    expect((await call(berth, 'agent.list', {}, token.token)).result).toBeDefined();
    expect((await call(berth, 'session.list', {}, token.token)).error?.code).toBe(-32001);
    const rotated = await trpc(berth, admin, 'credentials.rpcTokens.rotate', { id: token.id });
    const fresh = (rotated.body.result!.data as { token: string }).token;
    const old = await post(berth, '{"jsonrpc":"2.0","method":"agent.list","id":1}', token.token);
    expect(old.status).toBe(401);
    expect((await call(berth, 'agent.list', {}, fresh)).result).toBeDefined();
    await trpc(berth, admin, 'credentials.rpcTokens.revoke', { id: token.id });
    expect(
      (await post(berth, '{"jsonrpc":"2.0","method":"agent.list","id":1}', fresh)).status
    ).toBe(401);
  });

  it('counts calls in /metrics by method, code and token name', async () => {
    await call(berth, 'agent.list', {}, RO);
    await call(berth, 'session.delete', { sessionId: 'x' }, RO);
    const metrics = await (await fetch(`${berth.url}/metrics`)).text();
    expect(metrics).toMatch(
      /berth_rpc_calls_total\{method="agent.list",code="0",token="readonly"\} \d+/
    );
    expect(metrics).toMatch(
      /berth_rpc_calls_total\{method="session.delete",code="-32001",token="readonly"\} 1/
    );
    expect(metrics).not.toContain(OPS);
  });

  it('system.reload applies a valid file and keeps the old config for an invalid one', async () => {
    const file = join(berth.dataDir, 'berth.yaml');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, `${original}  - { name: helper, provider: builtin }\n`);
    const ok = await result<{ reloaded: boolean; changes: string[] }>(berth, 'system.reload');
    expect(ok).toEqual({ reloaded: true, changes: ['agents'] });
    expect(
      (await result<{ agents: { name: string }[] }>(berth, 'agent.list')).agents.map((a) => a.name)
    ).toEqual(['main', 'helper']);
    writeFileSync(file, `${original}  - { name: broken, heartbeatMs: 5 }\n`);
    const bad = await call(berth, 'system.reload');
    expect(bad.error).toMatchObject({
      code: -32603,
      data: { detail: expect.stringContaining('heartbeatMs') as string }
    });
    expect(await call(berth, 'agent.reload', { agentName: 'main' })).toMatchObject({
      error: { code: -32603, data: { detail: expect.stringContaining('heartbeatMs') as string } }
    });
    expect(
      (await result<{ agents: { name: string }[] }>(berth, 'agent.list')).agents.map((a) => a.name)
    ).toEqual(['main', 'helper']);
    writeFileSync(file, original);
    expect(await result(berth, 'system.reload')).toEqual({ reloaded: true, changes: ['agents'] });
  });

  it('survives a bounded fuzz run: no 500, no crash, bounded memory', async () => {
    let seed = 1234567;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const methods = [
      'agent.list',
      'agent.status',
      'session.get',
      'usage.stats',
      'turn.list',
      'x',
      ''
    ];
    const values = [null, 0, -1, 1.5, 'main', '', [], {}, { a: 1 }, true, 'x'.repeat(300), 2 ** 60];
    const base = () => ({
      jsonrpc: pick(['2.0', '2.0', '2.0', '1.0', 2]),
      method: pick(methods),
      params: rand() < 0.8 ? { agentName: pick(values), limit: pick(values) } : pick(values),
      id: pick(values)
    });
    const rss = () =>
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${berth.proc.pid}/status`, 'utf8'))![1]);
    const start = rss();
    for (let i = 0; i < 400; i++) {
      let body = JSON.stringify(rand() < 0.2 ? [base(), base(), pick(values)] : base());
      if (rand() < 0.3) {
        const at = Math.floor(rand() * body.length);
        body =
          body.slice(0, at) + pick(['"', '{', ']', '\\', '\u0000', 'é', ',']) + body.slice(at + 1);
      }
      const res = await post(berth, body);
      expect(res.status, body).toBeLessThan(500);
      if (res.status === 200) JSON.parse(res.text);
    }
    expect((await call(berth, 'agent.list')).result).toBeDefined();
    expect(rss() - start).toBeLessThan(64 * 1024);
  });
});

describe('POST /rpc with auth.type none, then disabled by a reload', () => {
  let berth: Berth;
  beforeAll(async () => {
    berth = await startBerth({
      config: 'gateway:\n  rpc:\n    enabled: true\n    auth:\n      type: none\n'
    });
  });
  afterAll(() => berth.stop());

  it('needs no token on loopback; enabled: false answers 404 on /rpc and /rpc/ws', async () => {
    expect((await call(berth, 'agent.list', {}, null)).result).toBeDefined();
    const ws = await openRpcWs(berth);
    const wsClosed = closed(ws);
    writeFileSync(
      join(berth.dataDir, 'berth.yaml'),
      'gateway:\n  rpc:\n    enabled: false\n    auth:\n      type: none\n'
    );
    expect(await call(berth, 'system.reload', {}, null)).toMatchObject({
      result: { reloaded: true, changes: ['gateway.rpc'] }
    });
    expect((await wsClosed).code).toBe(4001);
    const res = await post(berth, '{"jsonrpc":"2.0","method":"agent.list","id":1}', null);
    expect(res.status).toBe(404);
    expect((await fetch(`${berth.url}/rpc`)).status).toBe(404);
    await expect(openRpcWs(berth)).rejects.toThrow('HTTP 404');
  });
});

describe('the access log', () => {
  let berth: Berth;
  beforeAll(async () => {
    berth = await startBerth({ config: CONFIG, env: { LOG_LEVEL: 'info' } });
  });
  afterAll(() => berth.stop());

  it('logs each gateway request by route and credential name, never a secret', async () => {
    const wrong = 'wrong-token-that-must-not-be-logged';
    await post(berth, '{"jsonrpc":"2.0","method":"agent.list","id":1}');
    await post(berth, '{"jsonrpc":"2.0","method":"agent.list","id":2}', wrong);
    await fetch(`${berth.url}/rpc?token=${wrong}`, { method: 'POST' });
    const deadline = Date.now() + 5000;
    const lines = () =>
      berth
        .output()
        .split('\n')
        .filter((l) => l.includes('"msg":"request"'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    while (lines().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(lines()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          interface: 'rpc',
          method: 'POST',
          route: '/rpc',
          status: 200,
          credential: 'ops'
        }),
        expect.objectContaining({ route: '/rpc', status: 401, credential: null })
      ])
    );
    expect(berth.output()).not.toContain(OPS);
    expect(berth.output()).not.toContain(wrong);
  });
});
