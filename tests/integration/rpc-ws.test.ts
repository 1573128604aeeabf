import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { trpc, type Berth } from './helpers/berth';
import { berthConfig, OPS, rpcToken } from './helpers/config';
import { startWithAdmin } from './helpers/console';
import { bearer, rpcRequest as request } from './helpers/rpc';
import { closed, openRpcWs, rpcCall } from './helpers/sockets';

const RO = 'readonly-token-0123456789ab';
const CONFIG = berthConfig({
  rpcTokens: [
    rpcToken('ops', OPS),
    rpcToken('readonly', RO, ['agent.list', 'session.list', 'system.health'])
  ]
});

type Frame = {
  id?: unknown;
  method?: string;
  params?: { topic: string; data: Record<string, unknown> };
  result?: Record<string, unknown>;
  error?: { code: number; data?: { detail: string } };
};

/** Collects every frame a socket receives, to wait for those matching a condition. */
function collect(ws: WebSocket) {
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data: Buffer) => {
    frames.push(JSON.parse(data.toString()) as Frame);
    for (const w of waiters) w();
  });
  return {
    frames,
    until(predicate: (frames: Frame[]) => boolean, ms = 5000): Promise<Frame[]> {
      return new Promise((done, fail) => {
        const check = () => {
          if (!predicate(frames)) return;
          clearTimeout(timer);
          waiters.delete(check);
          done(frames);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          fail(new Error(`condition not met; got ${JSON.stringify(frames).slice(0, 2000)}`));
        }, ms);
        waiters.add(check);
        check();
      });
    }
  };
}

describe('/rpc/ws', () => {
  let berth: Berth;
  let admin: string;
  beforeAll(async () => ({ berth, admin } = await startWithAdmin({ config: CONFIG })));
  afterAll(() => berth.stop());

  it('authenticates at the upgrade with a Bearer header; a wrong one gets 401', async () => {
    await expect(openRpcWs(berth, bearer('wrong-token-0123456789'))).rejects.toThrow('HTTP 401');
    const ws = await openRpcWs(berth, bearer(OPS));
    try {
      expect(await rpcCall(ws, request('agent.list', {}, 'a'))).toMatchObject({
        id: 'a',
        result: { agents: [{ name: 'main' }] }
      });
      expect(await rpcCall(ws, request('agent.status', ['main'], 2))).toMatchObject({
        id: 2,
        error: { code: -32602 }
      });
      // params that are not structured make an invalid Request
      for (const params of ['main', 5])
        expect(await rpcCall(ws, request('agent.status', params, 3))).toMatchObject({
          id: 3,
          error: { code: -32600, data: { detail: 'params must be an object or an array' } }
        });
      expect(await rpcCall(ws, '{oops')).toMatchObject({ id: null, error: { code: -32700 } });
    } finally {
      ws.close();
    }
  });

  it('authenticates a browser by its first frame, within a few seconds', async () => {
    const ws = await openRpcWs(berth, { origin: 'http://somewhere.example' });
    try {
      expect(await rpcCall(ws, request('auth', { token: OPS }, 1))).toEqual({
        jsonrpc: '2.0',
        result: { authenticated: true, name: 'ops' },
        id: 1
      });
      expect(await rpcCall(ws, request('system.info', {}, 2))).toMatchObject({
        result: { name: 'berth' }
      });
      expect(await rpcCall(ws, request('auth', { token: OPS }, 3))).toMatchObject({
        error: { code: -32600, data: { detail: 'already authenticated' } }
      });
    } finally {
      ws.close();
    }

    const wrong = await openRpcWs(berth);
    const wrongClosed = closed(wrong);
    expect(
      await rpcCall(wrong, request('auth', { token: 'nope-nope-nope-nope' }, 1))
    ).toMatchObject({ id: 1, error: { code: -32000 } });
    expect((await wrongClosed).code).toBe(4001);

    const skipped = await openRpcWs(berth);
    const skippedClosed = closed(skipped);
    expect(await rpcCall(skipped, request('agent.list', {}, 7))).toMatchObject({
      id: 7,
      error: { code: -32000 }
    });
    expect((await skippedClosed).code).toBe(4001);

    const silent = await openRpcWs(berth);
    const started = Date.now();
    expect(await closed(silent, 8000)).toEqual({ code: 4001, reason: 'authentication required' });
    // gateway.rpc.ws.authTimeoutMs: 2 s by default
    expect(Date.now() - started).toBeGreaterThan(1500);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('pushes subscribed topics for a sendMessage: turn states and message deltas', async () => {
    const ws = await openRpcWs(berth, bearer(OPS));
    const inbox = collect(ws);
    try {
      ws.send(request('events.subscribe', { topics: ['turn.*', 'message.delta'] }, 's'));
      await inbox.until((f) => f.some((x) => x.id === 's'));
      expect(inbox.frames.find((x) => x.id === 's')).toMatchObject({
        result: { subscribed: ['turn.*', 'message.delta'] }
      });
      ws.send(
        request(
          'agent.sendMessage',
          { agentName: 'main', channel: 'ws', userId: 'u', message: 'push me' },
          'm'
        )
      );
      await inbox.until((f) =>
        f.some((x) => x.method === 'notify' && x.params?.topic === 'turn.completed')
      );
      const sent = inbox.frames.find((x) => x.id === 'm')!.result as { turnId: string };
      const notes = inbox.frames.filter((x) => x.method === 'notify').map((x) => x.params!);
      for (const n of notes) expect(n.data.turnId).toBe(sent.turnId);
      const topics = notes.map((n) => n.topic);
      expect(topics.filter((t) => t.startsWith('turn.'))).toEqual([
        'turn.queued',
        'turn.running',
        'turn.completed'
      ]);
      expect(topics.indexOf('message.delta')).toBeGreaterThan(topics.indexOf('turn.running'));
      const text = notes
        .filter((n) => n.topic === 'message.delta')
        .map((n) => n.data.text)
        .join('');
      expect(text).toBe(notes.find((n) => n.topic === 'turn.completed')!.data.result);
      expect(notes.some((n) => n.topic === 'message.created')).toBe(false);

      // After unsubscribing, nothing more arrives.
      expect(await rpcCall(ws, request('events.unsubscribe', {}, 'u'))).toMatchObject({
        result: { subscribed: [] }
      });
      const count = inbox.frames.length;
      ws.send(request('agent.sendMessage', { agentName: 'main', message: 'quiet' }, 'q'));
      await inbox.until((f) => f.some((x) => x.id === 'q'));
      await new Promise((r) => setTimeout(r, 300));
      expect(inbox.frames.slice(count).filter((x) => x.method === 'notify')).toEqual([]);
    } finally {
      ws.close();
    }
  });

  it('checks subscription topics and permissions', async () => {
    const ro = await openRpcWs(berth, bearer(RO));
    const ops = await openRpcWs(berth, bearer(OPS));
    try {
      expect(
        await rpcCall(ro, request('events.subscribe', { topics: ['turn.*'] }, 1))
      ).toMatchObject({
        error: { code: -32001, data: { detail: 'not permitted to call events.subscribe' } }
      });
      expect(await rpcCall(ro, request('agent.list', {}, 2))).toMatchObject({ result: {} });
      expect(
        await rpcCall(ops, request('events.subscribe', { topics: ['turn.exploded'] }, 3))
      ).toMatchObject({
        error: { code: -32602, data: { detail: expect.stringContaining('topics.0') as string } }
      });
      expect(
        await rpcCall(
          ops,
          request(
            'events.subscribe',
            { topics: ['session.*', 'agent.changed'], agentName: 'main' },
            4
          )
        )
      ).toMatchObject({ result: { subscribed: ['session.*', 'agent.changed'] } });
    } finally {
      ro.close();
      ops.close();
    }
  });

  it('a signed-in console user may use /rpc/ws with the session cookie from this origin', async () => {
    const ws = await openRpcWs(berth, { cookie: admin, origin: berth.url });
    try {
      expect(await rpcCall(ws, request('agent.list', {}, 1))).toMatchObject({ result: {} });
    } finally {
      ws.close();
    }
  });

  it('revoking or rotating a token closes its sockets at once and it gets 401', async () => {
    const created = await trpc(berth, admin, 'credentials.rpcTokens.create', {
      name: 'ws-client',
      permissions: ['*']
    });
    const { id, token } = created.body.result!.data as { id: string; token: string };
    const byHeader = await openRpcWs(berth, bearer(token));
    const byFrame = await openRpcWs(berth);
    expect(await rpcCall(byFrame, request('auth', { token }, 1))).toMatchObject({
      result: { name: 'ws-client' }
    });
    const other = await openRpcWs(berth, bearer(OPS));
    const headerClosed = closed(byHeader);
    const frameClosed = closed(byFrame);
    const rotated = await trpc(berth, admin, 'credentials.rpcTokens.rotate', { id });
    expect(rotated.status).toBe(200);
    expect(await headerClosed).toEqual({ code: 4001, reason: 'token revoked' });
    expect((await frameClosed).code).toBe(4001);
    await expect(openRpcWs(berth, bearer(token))).rejects.toThrow('HTTP 401');
    expect(other.readyState).toBe(WebSocket.OPEN);

    const fresh = (rotated.body.result!.data as { token: string }).token;
    const again = await openRpcWs(berth, bearer(fresh));
    const againClosed = closed(again);
    await trpc(berth, admin, 'credentials.rpcTokens.revoke', { id });
    expect((await againClosed).code).toBe(4001);
    const post = await fetch(`${berth.url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(fresh) },
      body: request('agent.list', {}, 1)
    });
    expect(post.status).toBe(401);
    expect(await rpcCall(other, request('agent.list', {}, 1))).toMatchObject({ result: {} });
    other.close();
  });

  it('limits the frame size and answers many pipelined requests without losing any', async () => {
    const big = await openRpcWs(berth, bearer(OPS));
    const bigClosed = closed(big);
    big.send(request('agent.list', { pad: 'x'.repeat(1024 * 1024 + 1) }, 1));
    expect((await bigClosed).code).toBe(1009);

    const ws = await openRpcWs(berth, bearer(OPS));
    const inbox = collect(ws);
    try {
      const n = 500;
      for (let i = 0; i < n; i++) ws.send(request('agent.status', { agentName: 'main' }, i));
      await inbox.until((f) => f.length >= n, 15_000);
      const ids = inbox.frames.map((f) => f.id as number);
      expect(new Set(ids).size).toBe(n);
      expect(inbox.frames.every((f) => f.result?.name === 'main')).toBe(true);
      // A batch in the same stream still works after the burst.
      expect(
        await rpcCall(
          ws,
          JSON.stringify([
            { jsonrpc: '2.0', method: 'agent.list', id: 'b1' },
            { jsonrpc: '2.0', method: 'agent.list' }
          ])
        )
      ).toMatchObject([{ id: 'b1' }]);
    } finally {
      ws.close();
    }
  });

  it('answers pings with pongs and closes the socket on a binary frame (1003)', async () => {
    const ws = await openRpcWs(berth, bearer(OPS));
    try {
      const pong = new Promise<string>((done) =>
        ws.once('pong', (d: Buffer) => done(d.toString()))
      );
      ws.ping('are-you-there');
      expect(await pong).toBe('are-you-there');
      const answers: unknown[] = [];
      ws.on('message', (d: Buffer) => answers.push(JSON.parse(d.toString())));
      const wsClosed = closed(ws);
      ws.send(Buffer.from(request('agent.list', {}, 1)), { binary: true });
      expect(await wsClosed).toEqual({ code: 1003, reason: 'frames must be text' });
      expect(answers).toEqual([]);
    } finally {
      ws.close();
    }
  });

  it('survives a bounded fuzz run of frames: no crash, bounded memory', async () => {
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const values = [null, 0, 1.5, 'main', '', [], {}, { topics: ['turn.*'] }, true, 2 ** 60];
    const methods = ['agent.status', 'events.subscribe', 'events.unsubscribe', 'auth', 'nope'];
    const rss = () =>
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${berth.proc.pid}/status`, 'utf8'))![1]);
    const start = rss();
    let ws = await openRpcWs(berth, bearer(OPS));
    for (let i = 0; i < 300; i++) {
      if (ws.readyState !== WebSocket.OPEN) ws = await openRpcWs(berth, bearer(OPS));
      const one = () => ({
        jsonrpc: pick(['2.0', '2.0', '1.0']),
        method: pick(methods),
        params: rand() < 0.7 ? { agentName: pick(values), topics: pick(values) } : pick(values),
        id: pick(values)
      });
      let text = JSON.stringify(rand() < 0.2 ? [one(), one()] : one());
      if (rand() < 0.3) {
        const at = Math.floor(rand() * text.length);
        text = text.slice(0, at) + pick(['"', '{', ']', '\\', 'é']) + text.slice(at + 1);
      }
      ws.send(text);
    }
    await new Promise((r) => setTimeout(r, 300));
    ws.close();
    const check = await openRpcWs(berth, bearer(OPS));
    expect(await rpcCall(check, request('agent.list', {}, 1))).toMatchObject({ result: {} });
    check.close();
    expect(rss() - start).toBeLessThan(64 * 1024);
  });
});
