import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trpc, type Berth } from './helpers/berth';
import { berthConfig } from './helpers/config';
import { signInAs, startWithAdmin } from './helpers/console';
import { startFakeOpenAi, type FakeOpenAi } from './helpers/fake-openai';
import { connectSocket } from './helpers/sockets';

const HOOK_TOKEN = 'chat-hook-token-0123456789abcdef';

interface Turn {
  turnId: string;
  sessionId: string;
  state: string;
  error: string | null;
}

/** Everything a socket receives, as [event, payload]. */
function record(socket: Socket): [string, Record<string, unknown>][] {
  const got: [string, Record<string, unknown>][] = [];
  socket.onAny((event: string, payload: Record<string, unknown>) => got.push([event, payload]));
  return got;
}

/** The server answers in order: once this ack is back, what it sent before has arrived. */
const settled = (socket: Socket) => socket.emitWithAck('room.leave', 'nothing');

async function until<T>(read: () => T | undefined | Promise<T | undefined>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('chat and activity in the console', () => {
  let fake: FakeOpenAi;
  let berth: Berth;
  let admin: string;
  let operator: string;
  let viewer: string;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    ({ berth, admin } = await startWithAdmin({
      config: berthConfig({
        webhookToken: HOOK_TOKEN,
        agents: [
          { name: 'main', provider: 'builtin' },
          { name: 'slow', provider: 'fake' }
        ],
        providers: {
          fake: { type: 'openai', baseUrl: fake.url, apiKey: 'sk-x', model: 'fake-small' }
        }
      })
    }));
    operator = await signInAs(berth, admin, 'operator');
    viewer = await signInAs(berth, admin, 'viewer');
  });
  afterAll(async () => {
    await berth?.stop();
    await fake?.close();
  });

  const call = async (who: string, path: string, input: unknown, kind?: 'query') => {
    const res = await trpc(berth, who, path, input, kind);
    return { status: res.status, data: res.body.result?.data as never, error: res.body.error };
  };
  const send = async (message: string, sessionId?: string, agent = 'main') => {
    const res = await call(operator, 'chat.send', { agent, message, sessionId });
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    return res.data as { turnId: string; sessionId: string; messageId: string };
  };

  it('streams a session only to its members, and the timeline to activity members', async () => {
    const first = await send('help');
    const other = await send('status');
    expect(other.sessionId).not.toBe(first.sessionId);
    const watcher = await connectSocket(berth, viewer);
    const bystander = await connectSocket(berth, viewer);
    try {
      const seen = record(watcher);
      const unseen = record(bystander);
      expect(await watcher.emitWithAck('room.join', `session:${first.sessionId}`)).toEqual({
        ok: true
      });
      expect(await watcher.emitWithAck('room.join', 'activity')).toEqual({ ok: true });
      // The bystander watches another session and no timeline.
      expect(await bystander.emitWithAck('room.join', `session:${other.sessionId}`)).toEqual({
        ok: true
      });

      const sent = await send('help', first.sessionId);
      expect(sent.sessionId).toBe(first.sessionId);
      const done = await until(() =>
        seen.find(
          ([e, p]) =>
            e === 'chat.turn' &&
            (p.turn as Turn).turnId === sent.turnId &&
            (p.turn as Turn).state === 'completed'
        )
      );
      expect(done).toBeDefined();
      await settled(watcher);
      await settled(bystander);
      const events = seen.filter(([e]) => e.startsWith('chat.'));
      const deltas = events.filter(([e]) => e === 'chat.delta').map(([, p]) => p.text as string);
      expect(deltas.join('')).toMatch(/^I am the builtin provider/);
      const messages = events
        .filter(([e]) => e === 'chat.message')
        .map(([, p]) => p.message as { role: string; turnId: string });
      expect(messages.map((m) => [m.role, m.turnId])).toEqual([
        ['user', sent.turnId],
        ['assistant', sent.turnId]
      ]);
      // Every chat event carried this session's channel, and the bystander heard none of it.
      expect(events.every(([, p]) => p.channel === `session:${first.sessionId}`)).toBe(true);
      expect(unseen.filter(([e]) => e.startsWith('chat.') || e.startsWith('activity.'))).toEqual(
        []
      );
      const rows = seen
        .filter(([e]) => e === 'activity.item')
        .map(([, p]) => p.item as { id: string; state: string; source: string });
      expect(rows.filter((r) => r.id === sent.turnId).map((r) => r.state)).toEqual(
        expect.arrayContaining(['queued', 'running', 'completed'])
      );
      expect(rows.every((r) => r.source === 'console')).toBe(true);

      // After leaving, nothing more arrives.
      await watcher.emitWithAck('room.leave', `session:${first.sessionId}`);
      const before = seen.length;
      const again = await send('status', first.sessionId);
      await until(() =>
        seen.find(
          ([e, p]) =>
            e === 'activity.item' &&
            (p.item as { state: string; id: string }).id === again.turnId &&
            (p.item as { state: string }).state === 'completed'
        )
      );
      expect(seen.slice(before).filter(([e]) => e.startsWith('chat.'))).toEqual([]);
    } finally {
      watcher.close();
      bystander.close();
    }
  });

  it('lets viewers read but not send or stop', async () => {
    const refused = await call(viewer, 'chat.send', { agent: 'main', message: 'help' });
    expect(refused.status).toBe(403);
    const stop = await call(viewer, 'chat.stop', { turnId: 'x' });
    expect(stop.status).toBe(403);
    const { sessionId } = await send('help');
    const read = await call(viewer, 'chat.history', { sessionId }, 'query');
    expect(read.status).toBe(200);
    // A session belongs to one agent: naming another is refused.
    const wrong = await call(operator, 'chat.send', { agent: 'slow', sessionId, message: 'hi' });
    expect(wrong.status).toBe(400);
  });

  it('pages history newest first, each message once, with no cursor past the oldest', async () => {
    const { sessionId } = await send('message 0');
    for (let i = 1; i < 5; i++) await send(`message ${i}`, sessionId);
    // Ten messages once every reply is in: five inputs, five replies.
    await until(async () => {
      const page = await call(viewer, 'chat.history', { sessionId, limit: 100 }, 'query');
      const data = page.data as { messages: { messageId: string }[] };
      return data.messages.length === 10 ? true : undefined;
    });
    const pages: {
      messages: { messageId: string; content: string }[];
      olderCursor: string | null;
    }[] = [];
    let before: string | undefined;
    do {
      const res = await call(viewer, 'chat.history', { sessionId, limit: 4, before }, 'query');
      expect(res.status).toBe(200);
      const page = res.data as (typeof pages)[number];
      pages.push(page);
      before = page.olderCursor ?? undefined;
    } while (before);
    expect(pages.map((p) => p.messages.length)).toEqual([4, 4, 2]);
    const ordered = pages.reverse().flatMap((p) => p.messages);
    expect(new Set(ordered.map((m) => m.messageId)).size).toBe(10);
    expect(ordered[0]!.content).toBe('message 0');
    expect(ordered[8]!.content).toBe('message 4');
  });

  it('stops a running turn: the provider request is dropped and the stop audited', async () => {
    fake.script({ kind: 'silent' });
    const seenBefore = fake.requests.length;
    const sent = await send('think hard', undefined, 'slow');
    await until(() => (fake.requests.length > seenBefore ? true : undefined));
    const stopped = await call(operator, 'chat.stop', { turnId: sent.turnId });
    expect(stopped.status, JSON.stringify(stopped.error)).toBe(200);
    const turn = await until(async () => {
      const page = await call(viewer, 'chat.turns', { sessionId: sent.sessionId }, 'query');
      const t = (page.data as { turns: Turn[] }).turns[0];
      return t?.state === 'cancelled' ? t : undefined;
    });
    expect(turn.error).toBe('cancelled by operator@example.com');
    await until(() => (fake.requests[seenBefore]?.closedAt ? true : undefined));
    const audit = await call(admin, 'audit.list', { limit: 20 }, 'query');
    expect(JSON.stringify(audit.data)).toContain(`slow/${sent.turnId}`);
    // A finished turn cannot be stopped again.
    const twice = await call(operator, 'chat.stop', { turnId: sent.turnId });
    expect(twice.status).toBe(400);
  });

  it('lists turns and events together, filtered, with details back to the delivery', async () => {
    const wake = await fetch(`${berth.url}/hooks/wake`, {
      method: 'POST',
      headers: { authorization: `Bearer ${HOOK_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'deploy finished', mode: 'now' })
    });
    expect(wake.status).toBe(200);
    const { eventId } = (await wake.json()) as { eventId: string };
    const events = await call(viewer, 'activity.list', { kind: 'event' }, 'query');
    const items = (events.data as { items: { kind: string; id: string; source: string }[] }).items;
    expect(items.every((i) => i.kind === 'event')).toBe(true);
    expect(items.find((i) => i.id === eventId)?.source).toBe('webhook');

    const consoleTurns = await call(
      viewer,
      'activity.list',
      { source: 'console', limit: 3 },
      'query'
    );
    const page = consoleTurns.data as {
      items: { kind: string; source: string; at: number }[];
      nextCursor: string;
    };
    expect(page.items).toHaveLength(3);
    expect(page.items.every((i) => i.kind === 'turn' && i.source === 'console')).toBe(true);
    const next = await call(
      viewer,
      'activity.list',
      { source: 'console', limit: 3, cursor: page.nextCursor },
      'query'
    );
    const older = (next.data as { items: { at: number }[] }).items;
    expect(older[0]!.at).toBeLessThanOrEqual(page.items[2]!.at);

    const detail = await until(async () => {
      const res = await call(viewer, 'activity.event', { id: eventId }, 'query');
      const d = res.data as { turn: Turn | null; delivery: { eventId: string } | null };
      return d.turn?.state === 'completed' ? d : undefined;
    });
    expect(detail.delivery?.eventId).toBe(eventId);
    const turn = await call(viewer, 'activity.turn', { id: detail.turn!.turnId }, 'query');
    expect((turn.data as { input: string }).input).toContain('deploy finished');
  });
});
