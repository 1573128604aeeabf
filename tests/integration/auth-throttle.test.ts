import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { JSON_TYPE, send, TOKEN, type Reply } from '../fixtures/webhooks';
import { startBerth, type Berth } from './helpers/berth';
import { berthConfig, OPS, rpcToken } from './helpers/config';
import { bearer, rpcRequest } from './helpers/rpc';

const KEY = 'rest-ops-key-0123456789abcdef';
const WINDOW_MS = 6000;
const MAX_FAILURES = 5;

/**
 * Each test speaks from its own loopback address (Linux routes all of 127/8 to lo), since the
 * throttle counts failures per client address.
 */
function from(
  address: string,
  port: number,
  options: { path: string; headers?: Record<string, string>; body?: string; agent?: Agent }
): Promise<Reply> {
  return send(port, {
    ...options,
    localAddress: address,
    headers: { ...JSON_TYPE, ...options.headers },
    body: options.body ?? '{}'
  });
}

/** One call per interface, with the given credential. */
const calls = {
  webhook: (berth: Berth, address: string, token = TOKEN) =>
    from(address, berth.port, {
      path: '/hooks/wake',
      headers: bearer(token),
      body: JSON.stringify({ text: 'hi' })
    }),
  rest: (berth: Berth, address: string, key = KEY) =>
    from(address, berth.port, {
      path: '/api/v1/skills/trigger',
      headers: bearer(key),
      body: JSON.stringify({ skill_id: 'echo', params: { a: 1 } })
    }),
  rpc: (berth: Berth, address: string, token = OPS) =>
    from(address, berth.port, {
      path: '/rpc',
      headers: bearer(token),
      body: rpcRequest('agent.list')
    })
};

/** Opens /rpc/ws from `address`; the socket, or the refusal's status and headers. */
function openWs(
  berth: Berth,
  address: string,
  headers: Record<string, string> = {}
): Promise<WebSocket | { status: number; retryAfter: string | undefined }> {
  return new Promise((done, fail) => {
    const ws = new WebSocket(`ws://127.0.0.1:${berth.port}/rpc/ws`, {
      headers,
      localAddress: address
    });
    ws.once('open', () => done(ws));
    ws.once('unexpected-response', (_req, res) => {
      done({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string });
      res.resume();
    });
    ws.once('error', fail);
  });
}

function exchange(ws: WebSocket, frame: unknown) {
  return new Promise<{ answer: Record<string, unknown>; code: number }>((done) => {
    let answer: Record<string, unknown> = {};
    ws.once('message', (data: Buffer) => (answer = JSON.parse(data.toString()) as never));
    ws.once('close', (code) => done({ answer, code }));
    ws.send(JSON.stringify(frame));
  });
}

const authFrame = (token: string) => ({
  jsonrpc: '2.0',
  method: 'auth',
  params: { token },
  id: 7
});

function expectRetryAfter(reply: Reply) {
  const seconds = Number(reply.headers['retry-after']);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(WINDOW_MS / 1000);
}

describe('failed authentications per client address', () => {
  let berth: Berth;
  beforeAll(async () => {
    berth = await startBerth({
      config: berthConfig({
        gateway: { authThrottle: { maxFailures: MAX_FAILURES, windowMs: WINDOW_MS } },
        rpcTokens: [rpcToken('ops', OPS)],
        apiKeys: [{ name: 'ops', key: KEY, role: 'operator' }],
        webhookToken: TOKEN
      })
    });
  });
  afterAll(() => berth?.stop());

  it('after 500 wrong webhook tokens the right one gets 429 too, until the window passes', async () => {
    const address = '127.0.0.11';
    const agent = new Agent({ keepAlive: true, maxSockets: 64, localAddress: address });
    const wrong = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        from(address, berth.port, {
          path: '/hooks/wake',
          headers: bearer(`wrong-token-${String(i).padStart(10, '0')}`),
          agent
        })
      )
    );
    agent.destroy();
    expect(wrong.filter((r) => r.status === 401)).toHaveLength(MAX_FAILURES);
    expect(wrong.filter((r) => r.status === 429)).toHaveLength(500 - MAX_FAILURES);
    const right = await calls.webhook(berth, address);
    expect(right.status).toBe(429);
    expect(right.json).toEqual({
      status: 429,
      error: 'too_many_requests',
      message: 'Too many failed authentications from this address'
    });
    expectRetryAfter(right);
    // Another address is not affected.
    expect((await calls.webhook(berth, '127.0.0.12')).status).toBe(200);
    await new Promise((r) => setTimeout(r, Number(right.headers['retry-after']) * 1000 + 100));
    expect((await calls.webhook(berth, address)).status).toBe(200);
  });

  it('REST: missing and wrong keys count; then the right key gets a 429 problem', async () => {
    const address = '127.0.0.13';
    expect((await calls.rest(berth, address)).status).toBe(200);
    for (let i = 0; i < MAX_FAILURES; i++) {
      const reply = await (i % 2
        ? calls.rest(berth, address, 'wrong-key-0123456789abcdef')
        : from(address, berth.port, { path: '/api/v1/skills/trigger' }));
      expect(reply.status).toBe(401);
    }
    const right = await calls.rest(berth, address);
    expect(right.status).toBe(429);
    expect(right.headers['content-type']).toBe('application/problem+json');
    expect(right.json).toEqual({
      type: 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: 'Too many failed authentications from this address'
    });
    expectRetryAfter(right);
  });

  it('RPC over HTTP: HTTP 429 with a JSON-RPC error carrying data.retryAfterMs', async () => {
    const address = '127.0.0.14';
    for (let i = 0; i < MAX_FAILURES; i++)
      expect((await calls.rpc(berth, address, 'wrong-token-0123456789abc')).status).toBe(401);
    const right = await calls.rpc(berth, address);
    expect(right.status).toBe(429);
    expectRetryAfter(right);
    const error = right.json.error as { code: number; data: { retryAfterMs: number } };
    expect(right.json).toMatchObject({ jsonrpc: '2.0', id: null });
    expect(error).toMatchObject({ code: -32002, message: 'Too many requests' });
    expect(error.data.retryAfterMs).toBeGreaterThan(0);
    expect(error.data.retryAfterMs).toBeLessThanOrEqual(WINDOW_MS);
  });

  it('/rpc/ws: wrong upgrade and auth-frame tokens count; then the right one is refused', async () => {
    const address = '127.0.0.15';
    const open = await openWs(berth, address);
    expect(open).toBeInstanceOf(WebSocket);
    for (let i = 0; i < MAX_FAILURES - 1; i++)
      expect(await openWs(berth, address, bearer('wrong-token-0123456789abc'))).toMatchObject({
        status: 401
      });
    const frameSocket = await openWs(berth, address);
    const wrongFrame = await exchange(
      frameSocket as WebSocket,
      authFrame('wrong-token-0123456789')
    );
    expect(wrongFrame.answer).toMatchObject({ id: 7, error: { code: -32000 } });
    expect(wrongFrame.code).toBe(4001);
    // The socket opened before the address ran out is refused at its auth frame.
    const late = await exchange(open as WebSocket, authFrame(OPS));
    expect(late.answer).toMatchObject({ id: 7, error: { code: -32002 } });
    expect(
      (late.answer.error as { data: { retryAfterMs: number } }).data.retryAfterMs
    ).toBeGreaterThan(0);
    expect(late.code).toBe(1008);
    const refused = await openWs(berth, address, bearer(OPS));
    expect(refused).toMatchObject({ status: 429 });
    const seconds = Number((refused as { retryAfter: string }).retryAfter);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(WINDOW_MS / 1000);
  });

  it('one count for all three interfaces: failures on some refuse every one', async () => {
    const address = '127.0.0.16';
    const failures = [
      () => calls.webhook(berth, address, 'wrong-token-0123456789abc'),
      () => calls.rest(berth, address, 'wrong-key-0123456789abcdef'),
      () => calls.rpc(berth, address, 'wrong-token-0123456789abc')
    ];
    for (let i = 0; i < MAX_FAILURES; i++) expect((await failures[i % 3]!()).status).toBe(401);
    expect((await calls.webhook(berth, address)).status).toBe(429);
    expect((await calls.rest(berth, address)).status).toBe(429);
    expect((await calls.rpc(berth, address)).status).toBe(429);
    expect((await calls.rpc(berth, '127.0.0.17')).status).toBe(200);
  });
});
