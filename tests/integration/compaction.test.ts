import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBerth, type Berth } from './helpers/berth';
import { berthConfig, OPS, rpcToken } from './helpers/config';
import { startFakeOpenAi, textAnswer, type FakeOpenAi } from './helpers/fake-openai';
import { callRpc } from './helpers/rpc';

type Message = { messageId: string; role: string; content: string; compactedBy: string | null };
type Session = {
  session: { summary: string | null; messageCount: number; compactedMessages: number };
  messages: Message[];
  summaries: {
    summaryId: string;
    messageCount: number;
    method: string;
    trigger: string;
    summary: string;
  }[];
};
type ChatMessage = { role: string; content: string | null };

/** Compaction on a model agent: the model summarises, the originals stay, later turns use it. */
describe('session compaction', () => {
  let fake: FakeOpenAi;
  let berth: Berth;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    const provider = { type: 'openai', baseUrl: fake.url, model: 'fake-small' };
    berth = await startBerth({
      config: berthConfig({
        rpcTokens: [rpcToken('ops', OPS)],
        agents: [
          {
            name: 'manual',
            provider: 'fake',
            heartbeatMs: 86_400_000,
            compaction: { budgetTokens: 0, keepMessages: 2 }
          },
          {
            name: 'auto',
            provider: 'fake',
            heartbeatMs: 86_400_000,
            compaction: { budgetTokens: 50, keepMessages: 2 }
          }
        ],
        providers: { fake: provider }
      })
    });
  });
  afterAll(async () => {
    await berth?.stop();
    await fake?.close();
  });

  const send = async (agentName: string, message: string) => {
    const { result } = await callRpc<{ turnId: string; sessionId: string }>(
      berth,
      OPS,
      'agent.sendMessage',
      { agentName, userId: 'u', message }
    );
    const deadline = Date.now() + 5000;
    for (;;) {
      const { result: turn } = await callRpc<{ state: string }>(berth, OPS, 'turn.get', {
        turnId: result!.turnId
      });
      if (turn?.state === 'completed') return result!.sessionId;
      if (turn?.state === 'failed' || Date.now() > deadline)
        throw new Error(`turn ended ${turn?.state}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const session = async (sessionId: string, extra: object = {}) =>
    (await callRpc<Session>(berth, OPS, 'session.get', { sessionId, ...extra })).result!;
  const lastChat = () => fake.requests.at(-1)!.body!.messages as ChatMessage[];

  it('summarises by the model, keeps the originals readable in pages, and later turns read the summary', async () => {
    fake.script(
      textAnswer(['first reply']),
      textAnswer(['second reply']),
      textAnswer(['third reply']),
      textAnswer(['The user asked three questions about the deploy.'])
    );
    let sessionId = '';
    for (const question of ['question one', 'question two', 'question three'])
      sessionId = await send('manual', question);

    const { result: compacted } = await callRpc<{ compactedMessages: number; summary: string }>(
      berth,
      OPS,
      'session.compact',
      { sessionId }
    );
    expect(compacted).toEqual({
      sessionId,
      compactedMessages: 4,
      summary: 'The user asked three questions about the deploy.'
    });
    // The summarisation request carried the four older messages, without tools.
    const asked = fake.requests.at(-1)!.body!;
    expect(asked.tools).toBeUndefined();
    const prompt = JSON.stringify(asked.messages);
    expect(prompt).toContain('question one');
    expect(prompt).toContain('second reply');
    expect(prompt).not.toContain('third reply');

    // Nothing lost: every message is there, read two at a time.
    const newest = await session(sessionId, { limit: 2 });
    expect(newest.messages.map((m) => [m.content, m.compactedBy])).toEqual([
      ['question three', null],
      ['third reply', null]
    ]);
    const older = await session(sessionId, { limit: 2, before: newest.messages[0]!.messageId });
    expect(older.messages.map((m) => m.content)).toEqual(['question two', 'second reply']);
    expect(older.messages.every((m) => m.compactedBy !== null)).toBe(true);
    expect(older.summaries).toEqual([
      expect.objectContaining({ messageCount: 4, method: 'model', trigger: 'manual' })
    ]);
    const oldest = await session(sessionId, { limit: 2, before: older.messages[0]!.messageId });
    expect(oldest.messages.map((m) => m.content)).toEqual(['question one', 'first reply']);
    expect(newest.session).toMatchObject({ messageCount: 6, compactedMessages: 4 });

    // The next turn reads the summary and the messages after it, not the compacted ones.
    fake.script(textAnswer(['fourth reply']));
    await send('manual', 'question four');
    const chat = JSON.stringify(lastChat());
    expect(chat).toContain('The user asked three questions about the deploy.');
    expect(chat).toContain('question three');
    expect(chat).not.toContain('question one');
    expect(chat).not.toContain('second reply');
  });

  it('compacts on its own when a turn reaches the token budget', async () => {
    fake.script(
      textAnswer(['small'], { prompt_tokens: 10, completion_tokens: 2 }),
      textAnswer(['large'], { prompt_tokens: 100, completion_tokens: 5 }),
      textAnswer(['Auto summary of the start.'])
    );
    await send('auto', 'hello');
    const sessionId = await send('auto', 'a much longer conversation');
    const deadline = Date.now() + 5000;
    let read = await session(sessionId);
    while (read.session.compactedMessages === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      read = await session(sessionId);
    }
    expect(read.session).toMatchObject({
      messageCount: 4,
      compactedMessages: 2,
      summary: 'Auto summary of the start.'
    });
    expect(read.summaries).toEqual([expect.objectContaining({ trigger: 'auto', method: 'model' })]);
    expect(read.messages.map((m) => m.compactedBy !== null)).toEqual([true, true, false, false]);
  });
});
