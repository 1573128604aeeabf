import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { freePort, startBerth, type Berth } from './helpers/berth';
import { berthConfig, OPS, rpcToken } from './helpers/config';
import {
  startFakeOpenAi,
  textAnswer,
  toolCallAnswer,
  type FakeOpenAi
} from './helpers/fake-openai';
import { bearer, callRpc, rpcRequest } from './helpers/rpc';
import { openRpcWs } from './helpers/sockets';
import { sendMessage, settledTurn, type TurnView as Turn } from './helpers/turns';

type Note = { topic: string; data: Record<string, unknown> };

describe('openai provider against a local OpenAI-compatible server', () => {
  let fake: FakeOpenAi;
  let berth: Berth;
  let deadPort: number;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    deadPort = await freePort();
    const provider = (extra: object) => ({
      type: 'openai',
      baseUrl: fake.url,
      apiKey: 'sk-test-secret',
      model: 'fake-small',
      headers: { 'x-org': 'berth-tests' },
      ...extra
    });
    berth = await startBerth({
      config: berthConfig({
        rpcTokens: [rpcToken('ops', OPS)],
        agents: [
          { name: 'main', provider: 'builtin' },
          { name: 'llm', provider: 'fake', systemPrompt: 'Be brief.' },
          { name: 'slow', provider: 'slow' },
          { name: 'tight', provider: 'tight' }
        ],
        providers: {
          fake: provider({ timeoutMs: 5000 }),
          slow: provider({ timeoutMs: 800 }),
          tight: provider({ maxToolCalls: 1 })
        }
      })
    });
  });
  afterAll(async () => {
    await berth?.stop();
    await fake?.close();
  });

  const send = (agentName: string, message: string) => sendMessage(berth, OPS, agentName, message);
  const settled = (turnId: string, ms = 8000): Promise<Turn> => settledTurn(berth, OPS, turnId, ms);
  const until = async (check: () => boolean, ms = 5000) => {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  it('runs a turn with two tool calls end to end, streaming deltas to /rpc/ws and recording usage', async () => {
    const ws: WebSocket = await openRpcWs(berth, bearer(OPS));
    const notes: Note[] = [];
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as { method?: string; params?: Note };
      if (frame.method === 'notify') notes.push(frame.params!);
    });
    try {
      await new Promise<void>((done) => {
        ws.once('message', () => done());
        ws.send(rpcRequest('events.subscribe', { topics: ['turn.*', 'message.*'] }, 's'));
      });
      const first = fake.requests.length;
      fake.script(
        toolCallAnswer([
          { name: 'echo', arguments: { text: 'hello from the model', n: 42 } },
          { name: 'engine_containers', arguments: { all: true } }
        ]),
        textAnswer(['Both ', 'tools ', 'answered.'])
      );
      const sent = await send('llm', 'use your tools');
      const done = await settled(sent.turnId);
      expect(done).toMatchObject({
        state: 'completed',
        result: 'Both tools answered.',
        error: null,
        // The provider's own figures, summed over the two requests of the turn.
        usage: { prompt: 31, completion: 12 }
      });

      const [ask, answer] = fake.requests.slice(first);
      expect(ask!.headers.authorization).toBe('Bearer sk-test-secret');
      expect(ask!.headers['x-org']).toBe('berth-tests');
      expect(ask!.body).toMatchObject({
        model: 'fake-small',
        stream: true,
        stream_options: { include_usage: true },
        tool_choice: 'auto'
      });
      const tools = (ask!.body!.tools as { function: { name: string } }[]).map(
        (t) => t.function.name
      );
      expect(tools).toEqual(['echo', 'engine_containers']);
      const messages = ask!.body!.messages as { role: string; content: string }[];
      expect(messages[0]!.role).toBe('system');
      expect(messages[0]!.content).toMatch(/^Be brief\./);
      expect(messages.at(-1)).toEqual({ role: 'user', content: 'use your tools' });

      // The second request carries the assembled calls and both results, matched by id.
      const followUp = answer!.body!.messages as Record<string, unknown>[];
      const [assistant, echoed, listed] = followUp.slice(-3);
      expect(assistant).toMatchObject({
        role: 'assistant',
        tool_calls: [
          {
            id: 'call_0',
            function: { name: 'echo', arguments: '{"text":"hello from the model","n":42}' }
          },
          { id: 'call_1', function: { name: 'engine_containers', arguments: '{"all":true}' } }
        ]
      });
      expect(echoed).toEqual({
        role: 'tool',
        tool_call_id: 'call_0',
        content: JSON.stringify({ output: { text: 'hello from the model', n: 42 } })
      });
      expect(listed).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
      const containers = JSON.parse(listed!.content as string) as { output: unknown };
      expect(Array.isArray(containers.output)).toBe(true);

      // Deltas reached the subscriber as they came, before the turn completed.
      await until(() => notes.some((n) => n.topic === 'turn.completed'));
      const mine = notes.filter(
        (n) => n.data.turnId === sent.turnId || n.data.sessionId === sent.sessionId
      );
      const topics = mine.map((n) => n.topic);
      const deltas = mine.filter((n) => n.topic === 'message.delta').map((n) => n.data.text);
      expect(deltas).toEqual(['Both ', 'tools ', 'answered.']);
      expect(topics.indexOf('message.delta')).toBeLessThan(topics.indexOf('turn.completed'));

      // The session keeps the tool calls, in order, before the reply.
      const { result: session } = await callRpc<{
        messages: { role: string; content: string }[];
      }>(berth, OPS, 'session.get', { sessionId: sent.sessionId });
      expect(session!.messages.map((m) => m.role)).toEqual(['user', 'tool', 'tool', 'assistant']);
      const toolMessages = session!.messages
        .filter((m) => m.role === 'tool')
        .map((m) => JSON.parse(m.content) as Record<string, unknown>);
      expect(toolMessages.map((m) => m.skill)).toEqual(['echo', 'engine.containers']);
      expect(toolMessages[0]).toEqual({
        skill: 'echo',
        params: { text: 'hello from the model', n: 42 },
        output: { text: 'hello from the model', n: 42 }
      });
    } finally {
      ws.close();
    }
  });

  it('tries again after a 429 no sooner than its Retry-After, then after a 500', async () => {
    const first = fake.requests.length;
    fake.script(
      {
        kind: 'status',
        status: 429,
        headers: { 'retry-after': '1' },
        body: { error: { message: 'slow down' } }
      },
      { kind: 'status', status: 500, body: { error: { message: 'upstream hiccup' } } },
      textAnswer(['third ', 'time'])
    );
    const done = await settled((await send('llm', 'retry please')).turnId);
    expect(done).toMatchObject({ state: 'completed', result: 'third time' });
    const [limited, failed, served] = fake.requests.slice(first);
    expect(failed!.at - limited!.at).toBeGreaterThanOrEqual(1000);
    // The 500 carried no Retry-After: a backoff of at least 250 ms (500 ms, jittered down to half).
    expect(served!.at - failed!.at).toBeGreaterThanOrEqual(250);
    expect(fake.requests.length - first).toBe(3);
  });

  it('gives up after maxAttempts 5xx answers, saying so', async () => {
    fake.script(
      { kind: 'status', status: 503, body: { error: { message: 'overloaded' } } },
      { kind: 'status', status: 503, body: { error: { message: 'overloaded' } } },
      { kind: 'status', status: 503, body: { error: { message: 'overloaded' } } }
    );
    const done = await settled((await send('llm', 'never mind')).turnId);
    expect(done).toMatchObject({
      state: 'failed',
      error: 'provider fake answered 503: overloaded (after 3 tries)'
    });
  });

  it('records a 401 in words', async () => {
    fake.script({ kind: 'status', status: 401, body: { error: { message: 'Incorrect API key' } } });
    const done = await settled((await send('llm', 'hello')).turnId);
    expect(done).toMatchObject({
      state: 'failed',
      error: 'provider fake answered 401: invalid API key'
    });
  });

  it('fails a turn whose answer does not start within timeoutMs, and hangs up', async () => {
    const first = fake.requests.length;
    fake.script({ kind: 'silent' });
    const started = Date.now();
    const done = await settled((await send('slow', 'take your time')).turnId);
    expect(done).toMatchObject({ state: 'failed', error: 'provider slow timed out after 800 ms' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    await until(() => fake.requests[first]?.closedAt != null);
  });

  it('turn.cancel aborts the running turn and its upstream request', async () => {
    const first = fake.requests.length;
    fake.script({ kind: 'silent' });
    const { turnId } = await send('llm', 'think forever');
    await until(() => fake.requests.length > first);
    expect(fake.requests[first]!.closedAt).toBeNull();
    const { result } = await callRpc<Turn>(berth, OPS, 'turn.cancel', { turnId });
    expect(result!.turnId).toBe(turnId);
    await until(() => fake.requests[first]!.closedAt !== null);
    expect(await settled(turnId)).toMatchObject({ state: 'cancelled', error: 'cancelled by ops' });
    // A finished turn cannot be cancelled again.
    expect((await callRpc(berth, OPS, 'turn.cancel', { turnId })).error).toMatchObject({
      code: -32602,
      data: {
        detail: expect.stringMatching(/is cancelled: only a queued or running turn/) as string
      }
    });
  });

  it('fails the turn past the tool-call limit', async () => {
    fake.script(
      toolCallAnswer([
        { name: 'echo', arguments: { a: 1 } },
        { name: 'echo', arguments: { a: 2 } }
      ])
    );
    const done = await settled((await send('tight', 'loop')).turnId);
    expect(done).toMatchObject({
      state: 'failed',
      error: 'the model asked for more than 1 tool calls in one turn (providers.tight.maxToolCalls)'
    });
  });

  it('reports an unreachable provider in system.health and on the turn', async () => {
    expect((await callRpc<{ status: string }>(berth, OPS, 'system.health')).result).toMatchObject({
      checks: { providers: { status: 'ok' } }
    });
    const gone = await startBerth({
      config: berthConfig({
        rpcTokens: [rpcToken('ops', OPS)],
        agents: [{ name: 'far', provider: 'gone', model: 'm' }],
        providers: { gone: { type: 'openai', baseUrl: `http://127.0.0.1:${deadPort}/v1` } }
      })
    });
    try {
      const health = await callRpc<{ status: string; checks: { providers: unknown } }>(
        gone,
        OPS,
        'system.health'
      );
      expect(health.result).toMatchObject({
        status: 'degraded',
        checks: {
          providers: {
            status: 'error',
            detail: `provider gone is unreachable: could not reach http://127.0.0.1:${deadPort}/v1/models: connection refused`
          }
        }
      });
      const { result } = await callRpc<{ turnId: string }>(gone, OPS, 'agent.sendMessage', {
        agentName: 'far',
        message: 'anyone?'
      });
      let t: Turn;
      do t = (await callRpc<Turn>(gone, OPS, 'turn.get', { turnId: result!.turnId })).result!;
      while (t.state === 'queued' || t.state === 'running');
      expect(t.error).toBe(
        `provider gone could not reach http://127.0.0.1:${deadPort}/v1/chat/completions: connection refused`
      );
    } finally {
      await gone.stop();
    }
  });
});
