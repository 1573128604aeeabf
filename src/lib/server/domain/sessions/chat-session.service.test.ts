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
  it('compacts all but the newest messages into a summary the next turn sees, keeping them', async () => {
    domain = testDomain({ sessions: { compaction: { budgetTokens: 0, keepMessages: 4 } } });
    let sessionId = '';
    for (let i = 0; i < 4; i++) {
      const t = await runTurn('long', `message ${i}`);
      sessionId = t.sessionId;
    }
    expect(domain.chatSessions.get(sessionId, 50).messages).toHaveLength(8);
    const result = await domain.chatSessions.compact(sessionId);
    expect(result.compactedMessages).toBe(4);
    expect(result.summary).toContain('user: message 0');
    const after = domain.chatSessions.get(sessionId, 50);
    // Nothing is lost: the four older messages are marked, not deleted.
    expect(after.messages).toHaveLength(8);
    const marked = after.messages.filter((m) => m.compactedBy !== null);
    expect(marked.map((m) => m.content.split('\n')[0])).toContain('message 0');
    expect(marked).toHaveLength(4);
    expect(after.summaries).toEqual([
      expect.objectContaining({
        summaryId: marked[0]!.compactedBy,
        messageCount: 4,
        method: 'extractive',
        trigger: 'manual'
      })
    ]);
    expect(after.session).toMatchObject({ summary: result.summary, compactedMessages: 4 });
    expect((await domain.chatSessions.compact(sessionId)).compactedMessages).toBe(0);

    // The next turn reads the summary and the messages after it, not the compacted ones.
    const seen: string[][] = [];
    const provider = domain.agents.provider(domain.agents.require('main'));
    const run = provider.run.bind(provider);
    provider.run = (request) => {
      seen.push(request.history.map((m) => m.content));
      return run(request);
    };
    await runTurn('long', 'message 4');
    expect(seen[0]![0]).toBe(`Summary of earlier messages: ${result.summary}`);
    expect(seen[0]!.slice(1).some((c) => c === 'message 0')).toBe(false);
    expect(seen[0]!.slice(1)).toHaveLength(4);
  });

  it('compacts on its own once a session reaches its token budget', async () => {
    domain = testDomain({ sessions: { compaction: { budgetTokens: 60, keepMessages: 2 } } });
    let sessionId = '';
    for (let i = 0; i < 3; i++) {
      const t = await runTurn('budget', `${'word '.repeat(20)}${i}`);
      sessionId = t.sessionId;
    }
    // The compaction runs in the background after the turn.
    for (
      let i = 0;
      i < 250 && domain.chatSessions.get(sessionId, 50).session.compactedMessages === 0;
      i++
    )
      await new Promise((r) => setTimeout(r, 20));
    const { session, messages } = domain.chatSessions.get(sessionId, 50);
    expect(session.compactedMessages).toBeGreaterThan(0);
    expect(messages.filter((m) => m.compactedBy === null).length).toBeLessThanOrEqual(4);
    expect(messages).toHaveLength(6);
  });

  it('follows a session size from the messages told after it was read, and reads it anew after a compaction', async () => {
    domain = testDomain({ sessions: { compaction: { budgetTokens: 1000, keepMessages: 2 } } });
    let last = await runTurn('sized', 'one');
    for (const input of ['two', 'three']) last = await runTurn('sized', input);
    const { sessionId } = last;
    const summaries = () => domain!.chatSessions.get(sessionId, 50).summaries.length;
    expect(summaries()).toBe(0);
    // A completed turn whose provider reported no usage: only the size in characters decides.
    const unmetered = () =>
      domain!.bus.emit('turn.changed', {
        ...domain!.turns.get(last.turnId),
        usage: { prompt: 0, completion: 0 }
      });
    unmetered();
    await new Promise((r) => setTimeout(r, 20));
    expect(summaries()).toBe(0);
    // 4,000 characters told (not stored): the size followed in memory reaches 1,000 tokens.
    domain.bus.emit('message.created', {
      sessionId,
      agentName: 'main',
      messageId: 'told',
      turnId: last.turnId,
      role: 'user',
      content: 'x'.repeat(4000),
      userId: null
    });
    unmetered();
    for (let i = 0; i < 100 && summaries() === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(summaries()).toBe(1);
    expect(domain.chatSessions.get(sessionId, 50).session.compactedMessages).toBe(4);
    // The compaction dropped it: read again from the file, the session is small, and more
    // turns (6 uncompacted messages again) compact nothing.
    for (const input of ['four', 'five']) last = await runTurn('sized', input);
    unmetered();
    await new Promise((r) => setTimeout(r, 50));
    expect(summaries()).toBe(1);
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
    await domain.chatSessions.compact(sessionId);
    // Compacted messages are kept: the count is unchanged.
    expect(domain.chatSessions.get(sessionId, 10).session.messageCount).toBe(6);
  });
});
