import { afterEach, describe, expect, it } from 'vitest';
import { testDomain } from '../testing';

let domain: ReturnType<typeof testDomain> | undefined;
afterEach(() => domain?.close());

/** Sends one operator turn over RPC into the session `sessionKey` and waits for it to finish. */
async function runTurn(sessionKey: string, input: string) {
  const t = domain!.turns.enqueue({
    agentName: 'main',
    sessionKey,
    input,
    source: 'rpc',
    trust: 'operator'
  });
  await domain!.turns.waitFor(t.turnId, 5000);
  return t;
}

describe('ChatSessionService (real SQLite)', () => {
  it('compacts all but the newest messages into a summary the next turn sees', async () => {
    domain = testDomain();
    let sessionId = '';
    for (let i = 0; i < 4; i++) {
      const t = await runTurn('long', `message ${i}`);
      sessionId = t.sessionId;
    }
    expect(domain.chatSessions.get(sessionId, 50).messages).toHaveLength(8);
    const result = domain.chatSessions.compact(sessionId);
    expect(result.compactedMessages).toBe(4);
    expect(result.summary).toContain('user: message 0');
    const after = domain.chatSessions.get(sessionId, 50);
    expect(after.messages).toHaveLength(4);
    expect(after.session.summary).toBe(result.summary);
    expect(domain.chatSessions.compact(sessionId).compactedMessages).toBe(0);
  });

  it('pages messages with before, lists and deletes sessions', async () => {
    domain = testDomain();
    const t = await runTurn('paged', 'one');
    const all = domain.chatSessions.get(t.sessionId, 10).messages;
    const older = domain.chatSessions.get(t.sessionId, 10, all[1]!.messageId).messages;
    expect(older.map((m) => m.messageId)).toEqual([all[0]!.messageId]);
    expect(() => domain!.chatSessions.get(t.sessionId, 10, 'nope')).toThrow(/before/);
    expect(domain.chatSessions.list({}, 10).sessions.map((s) => s.key)).toContain('paged');
    expect(domain.chatSessions.delete(t.sessionId)).toEqual({
      sessionId: t.sessionId,
      deleted: true
    });
    expect(() => domain!.chatSessions.get(t.sessionId, 10)).toThrow(/not found/);
    expect(
      domain.database.sqlite
        .prepare('select count(*) n from messages where session_id = ?')
        .get(t.sessionId)
    ).toEqual({ n: 0 });
  });
  it('counts the messages a session holds, in get and in list, after a compaction too', async () => {
    domain = testDomain();
    await runTurn('other', 'elsewhere');
    let sessionId = '';
    for (let i = 0; i < 3; i++) {
      const t = await runTurn('counted', `message ${i}`);
      sessionId = t.sessionId;
    }
    expect(domain.chatSessions.get(sessionId, 1).session.messageCount).toBe(6);
    const listed = domain.chatSessions.list({}, 10).sessions;
    expect(listed.find((s) => s.key === 'counted')?.messageCount).toBe(6);
    expect(listed.find((s) => s.key === 'other')?.messageCount).toBe(2);
    domain.chatSessions.compact(sessionId);
    expect(domain.chatSessions.get(sessionId, 10).session.messageCount).toBe(4);
  });
});
