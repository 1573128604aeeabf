import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trpc, type Berth } from './helpers/berth';
import { signInAs, startWithAdmin } from './helpers/console';

const KEY = 'sessions-ci-key-0123456789abcdef';
const TOKEN = 'sessions-rpc-token-0123456789abcdef';
const CONFIG = `
gateway:
  rpc:
    auth:
      tokens:
        - { name: cli, token: "${TOKEN}", permissions: ["agent.sendMessage"] }
  rest:
    apiKeys:
      - { name: ci, key: "${KEY}", role: operator }
agents:
  - { name: main }
  - { name: second }
`;

interface Listed {
  sessions: { sessionId: string; agentName: string; key: string; messageCount: number }[];
  nextCursor: string | null;
}

describe('sessions in the console (tRPC)', () => {
  let berth: Berth;
  let admin: string;
  let viewer: string;

  beforeAll(async () => {
    ({ berth, admin } = await startWithAdmin({ config: CONFIG }));
    viewer = await signInAs(berth, admin, 'viewer');
    const send = (body: Record<string, unknown>) =>
      fetch(`${berth.url}/api/v1/chat/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body)
      }).then((r) => expect(r.status).toBe(200));
    for (let i = 0; i < 7; i++) await send({ message: `help ${i}`, session: `deploy-${i % 3}` });
    await send({ message: 'status', session: 'other%_key', agent: 'second' });
    const rpc = await fetch(`${berth.url}/rpc`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'agent.sendMessage',
        params: { agentName: 'main', channel: 'cli', userId: 'me', message: 'status' }
      })
    });
    expect(rpc.status).toBe(200);
  });
  afterAll(() => berth.stop());

  const list = async (input: Record<string, unknown>, who = admin) => {
    const res = await trpc(berth, who, 'sessions.list', input, 'query');
    expect(res.status).toBe(200);
    return res.body.result!.data as Listed;
  };

  it('lists sessions with filters by agent, key text, channel and days, in pages', async () => {
    const all = await list({}, viewer);
    expect(all.sessions.map((s) => s.key).sort()).toEqual([
      'deploy-0',
      'deploy-1',
      'deploy-2',
      'other%_key',
      'rpc:cli:me'
    ]);
    expect((await list({ agent: 'second' })).sessions.map((s) => s.key)).toEqual(['other%_key']);
    // LIKE's wildcards are literal: "%_" finds only the key that holds them.
    expect((await list({ search: '%_' })).sessions.map((s) => s.key)).toEqual(['other%_key']);
    expect((await list({ search: 'DEPLOY-1' })).sessions.map((s) => s.key)).toEqual(['deploy-1']);
    expect((await list({ channel: 'cli' })).sessions.map((s) => s.key)).toEqual(['rpc:cli:me']);
    expect((await list({ channel: 'webhook:nobody' })).sessions).toHaveLength(0);
    expect((await list({ since: Date.now() + 60_000 })).sessions).toHaveLength(0);
    expect((await list({ until: Date.now() + 60_000 })).sessions).toHaveLength(5);

    const first = await list({ limit: 3 });
    expect(first.sessions).toHaveLength(3);
    expect(first.nextCursor).not.toBeNull();
    const rest = await list({ limit: 3, cursor: first.nextCursor });
    expect(rest.nextCursor).toBeNull();
    expect([...first.sessions, ...rest.sessions].map((s) => s.sessionId).sort()).toEqual(
      all.sessions.map((s) => s.sessionId).sort()
    );
  });

  it('reads a transcript in pages; operators compact and delete, audited; viewers may not', async () => {
    const target = (await list({ search: 'deploy-0' })).sessions[0]!;
    expect(target.messageCount).toBe(6);
    const get = (input: Record<string, unknown>) =>
      trpc(berth, viewer, 'sessions.get', { sessionId: target.sessionId, ...input }, 'query');
    const newest = (await get({ limit: 4 })).body.result!.data as {
      messages: { messageId: string; role: string; content: string }[];
    };
    expect(newest.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const older = (await get({ limit: 4, before: newest.messages[0]!.messageId })).body.result!
      .data as { messages: { content: string }[] };
    expect(older.messages.map((m) => m.content)[0]).toBe('help 0');

    const id = { sessionId: target.sessionId };
    expect((await trpc(berth, viewer, 'sessions.compact', id)).status).toBe(403);
    expect((await trpc(berth, viewer, 'sessions.delete', id)).status).toBe(403);
    const compacted = await trpc(berth, admin, 'sessions.compact', id);
    expect(compacted.status).toBe(200);
    expect(compacted.body.result!.data).toMatchObject({ compactedMessages: 2 });
    const after = (await get({})).body.result!.data as {
      session: { summary: string | null; messageCount: number; compactedMessages: number };
      messages: { content: string; compactedBy: string | null }[];
      summaries: { summaryId: string; messageCount: number; method: string }[];
    };
    // The originals are kept and readable; the two oldest point at the summary.
    expect(after.session).toMatchObject({ messageCount: 6, compactedMessages: 2 });
    expect(after.session.summary).toContain('help 0');
    const folded = after.messages.filter((m) => m.compactedBy !== null);
    expect(folded.map((m) => m.content)[0]).toBe('help 0');
    expect(after.summaries).toEqual([
      expect.objectContaining({
        summaryId: folded[0]!.compactedBy,
        messageCount: 2,
        method: 'extractive'
      })
    ]);

    expect((await trpc(berth, admin, 'sessions.delete', id)).status).toBe(200);
    expect((await get({})).status).toBe(404);
    const audit = (await trpc(berth, admin, 'audit.list', { action: 'session' }, 'query')).body
      .result!.data as { action: string; target: string }[];
    expect(audit.map((a) => [a.action, a.target])).toEqual([
      ['session.delete', 'main/deploy-0'],
      ['session.compact', 'main/deploy-0']
    ]);
  });
});
