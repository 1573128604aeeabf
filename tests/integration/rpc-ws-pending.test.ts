import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBerth, type Berth } from './helpers/berth';
import { berthConfig, OPS, rpcToken } from './helpers/config';
import { bearer as bearerOf, rpcRequest } from './helpers/rpc';
import { closed, rpcCall } from './helpers/sockets';

// Small pools so the test stays fast; the defaults are 1,000 / 100 / 10 and 2 s.
const CONFIG = berthConfig({
  rpcTokens: [rpcToken('ops', OPS)],
  gateway: {
    rpc: { ws: { maxConnections: 4, maxPending: 5, maxPendingPerAddress: 3, authTimeoutMs: 1500 } }
  }
});

const auth = (id: number) => rpcRequest('auth', { token: OPS }, id);

/** Opens /rpc/ws from a given loopback address; resolves with the socket or `HTTP <status>`. */
function open(
  berth: Berth,
  from: string,
  headers: Record<string, string> = {}
): Promise<WebSocket | string> {
  return new Promise((done) => {
    const ws = new WebSocket(`${berth.url.replace('http', 'ws')}/rpc/ws`, {
      headers,
      localAddress: from
    });
    ws.once('open', () => done(ws));
    ws.once('unexpected-response', (_req, res) => done(`HTTP ${res.statusCode}`));
    ws.once('error', (err) => done(err.message));
  });
}

const bearer = bearerOf(OPS);

/** Waits until /metrics counts at most `n` open /rpc/ws connections (counted out on close). */
async function connectionsAtMost(berth: Berth, n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await (await fetch(`${berth.url}/metrics`)).text();
    const open = Number(
      /^berth_realtime_connections\{transport="rpc-ws"\} (\d+)$/m.exec(text)?.[1]
    );
    if (open <= n) return;
    if (Date.now() > deadline) throw new Error(`${open} /rpc/ws connections open, expected ≤ ${n}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A hand-made upgrade from a client that then reads nothing and never answers the server's
 * close frame; resolves with the socket and the status line the server answered.
 */
function rawUpgrade(berth: Berth, from: string): Promise<{ socket: Socket; status: string }> {
  return new Promise((done, fail) => {
    const socket = connect({ host: '127.0.0.1', port: berth.port, localAddress: from }, () =>
      socket.write(
        'GET /rpc/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n'
      )
    );
    socket.once('data', (d: Buffer) => {
      socket.pause();
      done({ socket, status: d.toString('latin1').split('\r\n')[0]! });
    });
    socket.once('error', fail);
  });
}

describe('/rpc/ws: unauthenticated sockets have a pool of their own', () => {
  let berth: Berth;
  const sockets: WebSocket[] = [];
  const keep = (s: WebSocket | string): WebSocket => {
    if (typeof s === 'string') throw new Error(`expected a socket, got ${s}`);
    sockets.push(s);
    return s;
  };
  beforeAll(async () => {
    berth = await startBerth({ config: CONFIG });
  });
  afterAll(async () => {
    for (const s of sockets) s.terminate();
    await berth.stop();
  });

  it('idle sockets fill only the pending pool; authenticated clients keep their room', async () => {
    // 3 pending from one address, a 4th from it is refused (429); 2 more from another address
    // fill the pending pool (5), and a 6th from a third address is refused (503).
    const idle = [
      ...(await Promise.all([1, 2, 3].map(() => open(berth, '127.0.0.1')))),
      ...(await Promise.all([1, 2].map(() => open(berth, '127.0.0.2'))))
    ].map(keep);
    expect(await open(berth, '127.0.0.1')).toBe('HTTP 429');
    expect(await open(berth, '127.0.0.3')).toBe('HTTP 503');

    // Authenticated clients still connect, up to their own cap of 4.
    const authed = (await Promise.all([1, 2, 3].map(() => open(berth, '127.0.0.4', bearer)))).map(
      keep
    );
    expect(authed).toHaveLength(3);
    const fourth = keep(await open(berth, '127.0.0.4', bearer));
    expect(await open(berth, '127.0.0.4', bearer)).toBe('HTTP 503');

    // A pending socket that authenticates while the authenticated pool is full is told to
    // come back later (1013) and leaves the pending pool.
    const late = idle[0]!;
    const lateClosed = closed(late);
    expect(await rpcCall(late, auth(1))).toMatchObject({ id: 1, error: { code: -32003 } });
    expect(await lateClosed).toEqual({ code: 1013, reason: 'too many connections' });

    // With room again, a pending socket moves to the authenticated pool and works.
    const fourthClosed = closed(fourth);
    fourth.close();
    await fourthClosed;
    await connectionsAtMost(berth, 7); // the server counts it out as its close completes
    const promoted = idle[1]!;
    expect(await rpcCall(promoted, auth(2))).toMatchObject({
      id: 2,
      result: { authenticated: true, name: 'ops' }
    });
    expect(
      await rpcCall(promoted, '{"jsonrpc":"2.0","method":"agent.list","params":{},"id":3}')
    ).toMatchObject({ id: 3, result: { agents: [{ name: 'main' }] } });
    // Two pending places freed (late, promoted): a third address gets one.
    keep(await open(berth, '127.0.0.3'));
  });

  it('closes a socket that does not authenticate within authTimeoutMs (4001)', async () => {
    // The pending sockets of the previous test are closed by now or soon; wait for a place.
    let ws: WebSocket | string = 'HTTP 503';
    let started = Date.now();
    const deadline = Date.now() + 5000;
    while (typeof ws === 'string' && Date.now() < deadline) {
      started = Date.now(); // the server's timer starts once the upgrade is in
      ws = await open(berth, '127.0.0.5');
      if (typeof ws === 'string') await new Promise((r) => setTimeout(r, 100));
    }
    const silent = keep(ws);
    expect(await closed(silent, 8000)).toEqual({ code: 4001, reason: 'authentication required' });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(1500);
    expect(waited).toBeLessThan(6000);
    // Every idle socket is gone (the server counts them out as their close completes): the
    // whole pending pool is free again. The 4 authenticated ones of the first test stay.
    await connectionsAtMost(berth, 4);
    const again = (
      await Promise.all(
        ['127.0.0.6', '127.0.0.6', '127.0.0.6', '127.0.0.7', '127.0.0.7'].map((a) => open(berth, a))
      )
    ).map(keep);
    expect(again).toHaveLength(5);
    for (const ws of again) ws.terminate();
    await connectionsAtMost(berth, 4);
  });

  it('frees the place of a pending peer that ignores the close handshake', async () => {
    const raw = await Promise.all([1, 2, 3].map(() => rawUpgrade(berth, '127.0.0.8')));
    try {
      expect(raw.map((r) => r.status)).toEqual(Array(3).fill('HTTP/1.1 101 Switching Protocols'));
      expect(await open(berth, '127.0.0.8')).toBe('HTTP 429');
      // 1.5 s to authenticate, then 1 s for the closing handshake, not ws's 30 s.
      const asked = Date.now();
      let ws: WebSocket | string = 'HTTP 429';
      while (typeof ws === 'string' && Date.now() - asked < 15_000) {
        await new Promise((r) => setTimeout(r, 200));
        ws = await open(berth, '127.0.0.8');
      }
      keep(ws);
      expect(Date.now() - asked).toBeGreaterThanOrEqual(2000);
      expect(Date.now() - asked).toBeLessThan(15_000);
    } finally {
      for (const r of raw) r.socket.destroy();
    }
  });
});
