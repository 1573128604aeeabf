import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, hook, TOKEN } from '../fixtures/webhooks';
import { startBerth, type Berth } from './helpers/berth';
import { berthConfig, OPS, rpcToken } from './helpers/config';
import { startFakeOpenAi, textAnswer, type FakeOpenAi } from './helpers/fake-openai';
import { callRpc } from './helpers/rpc';

const KEY = 'ci-operator-key-0123456789abcdef';

type Totals = { messages: number; turns: number; tokens: { prompt: number; completion: number } };
type Stats = Totals & {
  byCredential: Record<string, Totals>;
  bySession: (Totals & { sessionId: string; agentName: string })[];
};

/** usage.stats counts the providers' own token figures per credential and session. */
describe('usage per credential', () => {
  let fake: FakeOpenAi;
  let berth: Berth;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    berth = await startBerth({
      config: berthConfig({
        rpcTokens: [rpcToken('ops', OPS)],
        apiKeys: [{ name: 'ci', key: KEY, role: 'operator' }],
        webhookToken: TOKEN,
        agents: [{ name: 'llm', provider: 'fake', heartbeatMs: 86_400_000 }],
        providers: { fake: { type: 'openai', baseUrl: fake.url, model: 'fake-small' } }
      })
    });
  });
  afterAll(async () => {
    await berth?.stop();
    await fake?.close();
  });

  it('counts turns and tokens per API key, RPC token and webhook, and filters by them', async () => {
    fake.script(
      textAnswer(['from rest'], { prompt_tokens: 100, completion_tokens: 10 }),
      textAnswer(['from rpc'], { prompt_tokens: 200, completion_tokens: 20 }),
      textAnswer(['from rpc again'], { prompt_tokens: 300, completion_tokens: 30 }),
      textAnswer(['from a webhook'], { prompt_tokens: 400, completion_tokens: 40 })
    );
    const rest = await fetch(`${berth.url}/api/v1/chat/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'llm', message: 'hello over REST' })
    });
    expect(rest.status).toBe(200);
    let rpcSession = '';
    for (const message of ['one', 'two']) {
      const { result } = await callRpc<{ turnId: string; sessionId: string }>(
        berth,
        OPS,
        'agent.sendMessage',
        { agentName: 'llm', userId: 'u1', message }
      );
      rpcSession = result!.sessionId;
      await settle(result!.turnId);
    }
    const hooked = await hook(
      berth.port,
      '/hooks/agent',
      { message: 'from outside', agent: 'llm' },
      AUTH
    );
    expect(hooked.status).toBe(200);
    await settle(hooked.json.turnId as string);

    const stats = await usage({});
    expect(stats.byCredential).toEqual({
      'apikey:ci': { messages: 2, turns: 1, tokens: { prompt: 100, completion: 10 } },
      'token:ops': { messages: 4, turns: 2, tokens: { prompt: 500, completion: 50 } },
      webhook: { messages: 2, turns: 1, tokens: { prompt: 400, completion: 40 } }
    });
    expect(stats.tokens).toEqual({ prompt: 1000, completion: 100 });
    expect(stats.bySession[0]).toMatchObject({
      sessionId: rpcSession,
      agentName: 'llm',
      turns: 2,
      tokens: { prompt: 500, completion: 50 }
    });

    const onlyOps = await usage({ credential: 'token:ops' });
    expect(onlyOps).toMatchObject({
      turns: 2,
      messages: 4,
      tokens: { prompt: 500, completion: 50 }
    });
    expect(Object.keys(onlyOps.byCredential)).toEqual(['token:ops']);
    const oneSession = await usage({ sessionId: rpcSession });
    expect(oneSession).toMatchObject({ turns: 2, tokens: { prompt: 500, completion: 50 } });
  });

  const usage = async (params: Record<string, string>) =>
    (await callRpc<Stats>(berth, OPS, 'usage.stats', params)).result!;

  async function settle(turnId: string): Promise<void> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const { result } = await callRpc<{ state: string }>(berth, OPS, 'turn.get', { turnId });
      if (result && ['completed', 'failed'].includes(result.state)) {
        expect(result.state).toBe('completed');
        return;
      }
      if (Date.now() > deadline) throw new Error(`turn ${turnId} did not end`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
});
