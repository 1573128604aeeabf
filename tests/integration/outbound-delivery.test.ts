import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, hook, TOKEN } from '../fixtures/webhooks';
import { trpc, type Berth } from './helpers/berth';
import { berthConfig } from './helpers/config';
import { signInAs, startWithAdmin } from './helpers/console';
import { startFakeOpenAi, type FakeOpenAi } from './helpers/fake-openai';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A receiver as a customer would write it: it checks each message's Standard Webhooks
 * signature with its own HMAC (not Berth's code) and answers what the test scripts.
 */
class Receiver {
  readonly received: Received[] = [];
  readonly answers: number[] = [];
  server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      this.received.push({ path: req.url ?? '', headers: req.headers, body, at: Date.now() });
      res.writeHead(this.answers.shift() ?? 200).end('ok');
    });
  });
  url = '';
  async start() {
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  at(path: string) {
    return this.received.filter((r) => r.path === path);
  }
}

/** The receiver's check: v1 HMAC-SHA256 of "id.timestamp.body" under the decoded secret. */
function verify(secret: string, message: Received): boolean {
  const id = message.headers['webhook-id'] as string;
  const timestamp = message.headers['webhook-timestamp'] as string;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${id}.${timestamp}.${message.body}`)
    .digest('base64');
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  return (
    fresh && (message.headers['webhook-signature'] as string).split(' ').includes(`v1,${expected}`)
  );
}

/** The first value `read` gives that is not undefined, polled every 25 ms. */
async function eventually<T>(
  read: () => T | undefined | Promise<T | undefined>,
  ms = 5000
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

type Delivery = {
  deliveryId: string;
  state: string;
  attempts: number;
  turnId: string;
  url: string;
};
type Attempt = { status: number | null; error: string | null; trigger: string; durationMs: number };

describe('announce delivery to outbound webhooks', () => {
  const receiver = new Receiver();
  let fake: FakeOpenAi;
  let berth: Berth;
  let admin: string;
  let operator: string;
  let viewer: string;
  const ok = async <T>(
    cookie: string,
    path: string,
    input?: unknown,
    kind: 'query' | 'mutation' = 'mutation'
  ): Promise<T> => {
    const res = await trpc(berth, cookie, path, input, kind);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result!.data as T;
  };
  const deliveries = (agent: string) =>
    ok<{ deliveries: Delivery[] }>(admin, 'outbound.deliveries', { agent }, 'query');
  const attempts = (id: string) => ok<Attempt[]>(admin, 'outbound.attempts', { id }, 'query');

  beforeAll(async () => {
    await receiver.start();
    fake = await startFakeOpenAi();
    ({ berth, admin } = await startWithAdmin({
      config:
        berthConfig({
          webhookToken: TOKEN,
          agents: [
            {
              name: 'main',
              provider: 'builtin',
              heartbeatMs: 86_400_000,
              outbound: [{ url: `${receiver.url}/config`, secret: SECRET, allowPrivate: true }]
            },
            {
              name: 'strict',
              provider: 'builtin',
              heartbeatMs: 86_400_000,
              outbound: [{ url: `${receiver.url}/strict`, secret: SECRET }]
            },
            { name: 'console', provider: 'builtin', heartbeatMs: 86_400_000 },
            { name: 'slow', provider: 'slow', heartbeatMs: 86_400_000 }
          ],
          providers: { slow: { type: 'openai', baseUrl: fake.url, model: 'm', timeoutMs: 5000 } }
        }) + 'outbound:\n  retryDelaysMs: [300, 300]\n'
    }));
    operator = await signInAs(berth, admin, 'operator');
    viewer = await signInAs(berth, admin, 'viewer');
  });
  afterAll(async () => {
    await berth?.stop();
    await fake?.close();
    receiver.server.close();
  });

  it('waits for the result, then delivers it signed, retrying after a 500', async () => {
    receiver.answers.push(500, 200);
    const reply = await hook(
      berth.port,
      '/hooks/agent',
      { message: 'status report please', delivery: 'announce', wait: true },
      AUTH
    );
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ state: 'completed', turnId: expect.any(String) as string });
    expect(typeof reply.json.result).toBe('string');
    expect((reply.json.result as string).length).toBeGreaterThan(0);
    const turnId = reply.json.turnId as string;

    const tries = await eventually(() =>
      receiver.at('/config').length >= 2 ? receiver.at('/config') : undefined
    );
    expect(tries).toHaveLength(2);
    for (const message of tries) expect(verify(SECRET, message)).toBe(true);
    // A retry is the same message: the same webhook-id, so receivers can drop duplicates.
    expect(tries[1]!.headers['webhook-id']).toBe(tries[0]!.headers['webhook-id']);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(200);
    const payload = JSON.parse(tries[1]!.body) as Record<string, unknown>;
    expect(payload).toMatchObject({
      type: 'turn.completed',
      data: { turnId, agentName: 'main', state: 'completed', result: reply.json.result }
    });

    const delivery = await eventually(async () => {
      const [first] = (await deliveries('main')).deliveries;
      return first?.state === 'delivered' ? first : undefined;
    });
    expect(delivery).toMatchObject({
      turnId,
      attempts: 2,
      deliveryId: tries[0]!.headers['webhook-id']
    });
    const log = await attempts(delivery.deliveryId);
    expect(log.map((a) => [a.status, a.trigger])).toEqual([
      [500, 'auto'],
      [200, 'auto']
    ]);
    expect(log[0]!.error).toBe('answered 500');
  });

  it('refuses a loopback endpoint without allowPrivate and gives up after the last retry', async () => {
    const reply = await hook(
      berth.port,
      '/hooks/agent',
      { message: 'to a guarded endpoint', agent: 'strict', delivery: 'announce' },
      AUTH
    );
    expect(reply.status).toBe(200);
    const delivery = await eventually(async () => {
      const [first] = (await deliveries('strict')).deliveries;
      return first?.state === 'failed' ? first : undefined;
    });
    expect(delivery.attempts).toBe(3);
    const log = await attempts(delivery.deliveryId);
    expect(log).toHaveLength(3);
    for (const a of log) {
      expect(a.status).toBeNull();
      expect(a.error).toMatch(/refused: 127\.0\.0\.1 is a loopback address/);
    }
    expect(receiver.at('/strict')).toEqual([]);
  });

  it('adds an endpoint in the console (secret shown once), delivers to it and resends on request', async () => {
    const denied = await trpc(berth, viewer, 'outbound.add', {
      agent: 'console',
      url: `${receiver.url}/console`
    });
    expect(denied.status).toBe(403);
    const added = await ok<{ id: string; secret: string }>(operator, 'outbound.add', {
      agent: 'console',
      url: `${receiver.url}/console`,
      allowPrivate: true
    });
    expect(added.secret).toMatch(/^whsec_/);
    const listed = await ok<object[]>(viewer, 'outbound.list', { agent: 'console' }, 'query');
    expect(listed).toEqual([expect.objectContaining({ id: added.id, source: 'console' })]);
    expect(JSON.stringify(listed)).not.toContain(added.secret.slice(6));

    const reply = await hook(
      berth.port,
      '/hooks/agent',
      { message: 'for the console endpoint', agent: 'console', delivery: 'announce' },
      AUTH
    );
    expect(reply.status).toBe(200);
    const first = await eventually<Received>(() => receiver.at('/console')[0]);
    expect(verify(added.secret, first)).toBe(true);
    const delivery = await eventually(async () => {
      const [first] = (await deliveries('console')).deliveries;
      return first?.state === 'delivered' ? first : undefined;
    });

    const resent = await ok<Delivery>(operator, 'outbound.resend', { id: delivery.deliveryId });
    expect(resent.state).toBe('delivered');
    const again = receiver.at('/console');
    expect(again).toHaveLength(2);
    expect(verify(added.secret, again[1]!)).toBe(true);
    expect(again[1]!.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect((await attempts(delivery.deliveryId)).map((a) => a.trigger)).toEqual(['auto', 'resend']);

    await ok(operator, 'outbound.remove', { id: added.id });
    expect(await ok<object[]>(viewer, 'outbound.list', { agent: 'console' }, 'query')).toEqual([]);
  });

  it('answers 202 with the turn id when the turn outlasts waitMs', async () => {
    fake.script({ kind: 'silent' });
    const started = Date.now();
    const reply = await hook(
      berth.port,
      '/hooks/agent',
      { message: 'take your time', agent: 'slow', wait: true, waitMs: 400 },
      AUTH
    );
    expect(reply.status).toBe(202);
    expect(reply.json).toMatchObject({
      status: 202,
      turnId: expect.any(String) as string,
      state: 'running'
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    const bad = await hook(
      berth.port,
      '/hooks/agent',
      { message: 'x', wait: true, waitMs: 500_000 },
      AUTH
    );
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/waitMs must be at most 120000/);
  });
});
