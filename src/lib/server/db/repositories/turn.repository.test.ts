import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../client';
import { SessionRepository } from './session.repository';
import { TurnRepository } from './turn.repository';

// The turn and message writes are compiled once and the rows they return built in memory:
// what they return must be what a read of the stored rows gives.
describe('TurnRepository writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-turns-repo-'));
  const opened = openDatabase(join(dir, 'berth.db'), resolve('drizzle'));
  const turns = new TurnRepository(opened.db);
  const sessions = new SessionRepository(opened.db);
  afterAll(() => {
    opened.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const enqueue = (id: string, turn: Record<string, unknown> = {}, now = 1_000) =>
    turns.enqueueWithMessage({
      agentName: 'main',
      sessionKey: 'main',
      turn: {
        id,
        state: 'queued',
        source: 'rest',
        input: `input of ${id}`,
        queuedAt: now,
        ...turn
      },
      message: { id: `m-${id}`, content: `input of ${id}`, channel: null, userId: null },
      now
    });

  it('returns the turn as stored, with the columns defaults where the caller says nothing', () => {
    const first = enqueue('t1', { model: undefined });
    expect(first.sessionCreated).toBe(true);
    expect(first.turn).toEqual(turns.byId('t1'));
    expect(first.turn).toMatchObject({
      delivery: 'none',
      trust: 'external',
      attempts: 0,
      promptTokens: 0,
      model: null,
      context: null,
      messageId: 'm-t1'
    });
    const second = enqueue('t2', { context: { chat: 'c1', n: 2 }, delivery: 'announce' }, 2_000);
    expect(second.sessionCreated).toBe(false);
    expect(second.sessionId).toBe(first.sessionId);
    expect(turns.byId('t2')).toEqual(second.turn);
    expect(turns.byId('t2')?.context).toEqual({ chat: 'c1', n: 2 });
    expect(sessions.brief(first.sessionId)).toBeDefined();
    expect(sessions.messages(first.sessionId, 10).map((m) => [m.seq, m.id])).toEqual([
      [1, 'm-t1'],
      [2, 'm-t2']
    ]);
  });

  it('appends numbered messages, returned as stored, and touches the session', () => {
    const { sessionId } = enqueue('t3', {}, 3_000);
    const reply = sessions.appendMessage(sessionId, {
      id: 'reply-t3',
      role: 'assistant',
      content: 'done',
      turnId: 't3',
      createdAt: 4_000
    });
    const stored = sessions.messages(sessionId, 10).find((m) => m.id === 'reply-t3');
    expect(reply).toEqual(stored);
    expect(reply.seq).toBe(4);
    expect(sessions.byKey('main', 'main')?.updatedAt).toBe(4_000);
  });

  it('finishes turns with any set of columns, each set compiled once', () => {
    enqueue('t4');
    const running = turns.finish('t4', { state: 'running', startedAt: 5_000 });
    expect(running).toMatchObject({ state: 'running', startedAt: 5_000, input: 'input of t4' });
    const done = turns.finish('t4', {
      state: 'completed',
      result: 'ok',
      promptTokens: 3,
      completionTokens: 4,
      finishedAt: 6_000,
      error: undefined
    });
    expect(done).toEqual(turns.byId('t4'));
    expect(done).toMatchObject({ state: 'completed', result: 'ok', startedAt: 5_000 });
    expect(turns.finish('t4', { state: 'queued', startedAt: null })?.startedAt).toBeNull();
    expect(turns.finish('missing', { state: 'failed' })).toBeUndefined();
  });
});

// A long session's compacted messages are never stepped over: each turn's history, the size
// check and compaction find the uncompacted ones through a partial index.
describe('messages of a session, uncompacted', () => {
  it('are read through their own index', () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-messages-index-'));
    const opened = openDatabase(join(dir, 'berth.db'), resolve('drizzle'));
    try {
      const plan = (sql: string) =>
        (opened.sqlite.prepare(`explain query plan ${sql}`).all() as { detail: string }[])
          .map((r) => r.detail)
          .join(' | ');
      const uncompacted = `session_id = 's' and compacted_by is null`;
      expect(
        plan(`select * from messages where ${uncompacted} order by seq desc limit 40`)
      ).toContain('messages_session_uncompacted');
      expect(plan(`select sum(length(content)) from messages where ${uncompacted}`)).toContain(
        'messages_session_uncompacted'
      );
      // A transcript page reads every message, compacted or not.
      expect(
        plan(`select * from messages where session_id = 's' order by seq desc limit 50`)
      ).toContain('messages_session_seq');
    } finally {
      opened.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
