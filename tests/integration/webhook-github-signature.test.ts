import type Database from 'better-sqlite3';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { githubPush, JSON_TYPE, openDb, send, TOKEN } from '../fixtures/webhooks';
import { trpc, type Berth } from './helpers/berth';
import { startWithAdmin } from './helpers/console';
import { TURN_INPUT } from './helpers/turns';

const config = `
gateway:
  authThrottle: { maxFailures: 3, windowMs: 60000 }
webhooks:
  enabled: true
  token: "${TOKEN}"
  rateLimit: { maxRequests: 100000, windowMs: 60000 }
`;

type Row = Record<string, unknown>;
type Data = Record<string, unknown>;
/** A matcher typed as what it stands for, so object literals stay type-safe. */
const aString = expect.any(String) as unknown as string;

const signature = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('GitHub deliveries signed with X-Hub-Signature-256', () => {
  let berth: Berth;
  let admin: string;
  let db: Database.Database;
  const ok = async <T = Data>(path: string, input?: unknown, kind?: 'query'): Promise<T> => {
    const res = await trpc(berth, admin, path, input, kind ?? 'mutation');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result!.data as T;
  };
  /** A push as GitHub sends it: no token header, the body signed with `secret`. */
  const push = (secret: string, from = '127.0.0.1', body = githubPush) =>
    send(berth.port, {
      path: '/hooks/github-push',
      localAddress: from,
      headers: {
        ...JSON_TYPE,
        'x-github-event': 'push',
        'x-github-delivery': crypto.randomUUID(),
        'x-hub-signature-256': signature(secret, body)
      },
      body
    });

  beforeAll(async () => {
    ({ berth, admin } = await startWithAdmin({ config }));
    db = openDb(berth.dataDir);
    await ok('webhooks.mappings.create', {
      name: 'github-push',
      match: { 'headers.x-github-event': 'push' },
      message: 'Push to {body.repository.full_name} by {body.pusher.name}'
    });
  });
  afterAll(async () => {
    db?.close();
    await berth?.stop();
  });

  it('accepts a body signed with a signing token, credits that token, logs no signature', async () => {
    const signing = await ok<{ id: string; token: string; signing: boolean }>(
      'webhooks.tokens.create',
      { name: 'github', signing: true }
    );
    expect(signing.signing).toBe(true);
    await ok('webhooks.tokens.create', { name: 'plain' });

    const sent = await push(signing.token);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json).toMatchObject({ mapping: 'github-push', turnId: aString });
    const turn = db
      .prepare(`select ${TURN_INPUT} input from turns where id = ?`)
      .get(sent.json.turnId) as Row;
    expect(turn.input).toBe('Push to octo-org/berth by octocat');

    const tokens = await ok<Data[]>('webhooks.tokens.list', undefined, 'query');
    expect(tokens.map((t) => [t.name, t.signing, typeof t.lastUsedAt])).toEqual([
      ['webhooks.token', false, 'object'],
      ['github', true, 'number'],
      ['plain', false, 'object']
    ]);
    expect(JSON.stringify(tokens)).not.toContain(signing.token);

    const [logged] = await ok<Data[]>(
      'webhooks.deliveries.list',
      { mapping: 'github-push' },
      'query'
    );
    expect(logged).toMatchObject({ status: 200, matched: true, turnId: sent.json.turnId });
    const detail = await ok<Data>('webhooks.deliveries.get', { id: logged!.id }, 'query');
    expect(detail.headers).toMatchObject({ 'x-github-event': 'push' });
    expect(detail.headers).not.toHaveProperty('x-hub-signature-256');
    const rows = JSON.stringify(db.prepare('select * from webhook_deliveries').all());
    expect(rows).not.toContain(signature(signing.token, githubPush).slice(7));
  });

  it('refuses a wrong signature, one made with a plain token, and a revoked token (401)', async () => {
    const signing = await ok<{ id: string; token: string }>('webhooks.tokens.create', {
      name: 'github-2',
      signing: true
    });
    const plain = await ok<{ token: string }>('webhooks.tokens.create', { name: 'plain-2' });
    // Each refusal from its own address: three failures from one would trip the throttle.
    const wrong = await push('not-the-secret', '127.0.0.21');
    expect([wrong.status, wrong.json.message]).toEqual([401, 'Invalid token']);
    expect(wrong.headers['www-authenticate']).toBe('Bearer');
    const tampered = await send(berth.port, {
      path: '/hooks/github-push',
      localAddress: '127.0.0.22',
      headers: {
        ...JSON_TYPE,
        'x-hub-signature-256': signature(signing.token, githubPush)
      },
      body: githubPush.replace('octocat', 'mallory')
    });
    expect(tampered.status).toBe(401);
    expect((await push(plain.token, '127.0.0.23')).status).toBe(401);
    expect((await push(TOKEN, '127.0.0.24')).status).toBe(401);

    expect((await push(signing.token, '127.0.0.25')).status).toBe(200);
    await ok('webhooks.tokens.revoke', { id: signing.id });
    expect((await push(signing.token, '127.0.0.26')).status).toBe(401);

    const refused = await ok<Data[]>(
      'webhooks.deliveries.list',
      { mapping: 'github-push', status: 401 },
      'query'
    );
    expect(refused.length).toBeGreaterThanOrEqual(5);
  });

  it('keeps signing through a rotate: the new secret signs, the old stops at once', async () => {
    const signing = await ok<{ id: string; token: string }>('webhooks.tokens.create', {
      name: 'github-3',
      signing: true
    });
    const rotated = await ok<{ token: string; signing: boolean }>('webhooks.tokens.rotate', {
      id: signing.id
    });
    expect(rotated.signing).toBe(true);
    expect((await push(signing.token, '127.0.0.31')).status).toBe(401);
    expect((await push(rotated.token, '127.0.0.32')).status).toBe(200);
  });

  it('does not let wrong signatures from a shared address lock out the right ones', async () => {
    // GitHub posts every repository's deliveries from a few addresses: a stranger's webhook
    // aimed here with a wrong secret fails past the throttle's limit (3 here)...
    const from = '127.0.0.41';
    const signing = await ok<{ id: string; token: string }>('webhooks.tokens.create', {
      name: 'github-4',
      signing: true
    });
    for (let i = 0; i < 5; i++) expect((await push('guess', from)).status).toBe(401);
    // ...and the right delivery from the same address still lands.
    expect((await push(signing.token, from)).status).toBe(200);
    // Wrong tokens still count against the address.
    const wrongToken = () =>
      send(berth.port, {
        path: '/hooks/github-push',
        localAddress: from,
        headers: { ...JSON_TYPE, 'x-gateway-token': 'not-a-token' },
        body: githubPush
      });
    for (let i = 0; i < 3; i++) expect((await wrongToken()).status).toBe(401);
    const blocked = await push(signing.token, from);
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toEqual(expect.any(String));
  });

  it("deletes a signing token's secret when it is revoked", async () => {
    const signing = await ok<{ id: string; token: string }>('webhooks.tokens.create', {
      name: 'github-5',
      signing: true
    });
    const secretOf = () =>
      (
        db.prepare('select signing_secret s from webhook_tokens where id = ?').get(signing.id) as {
          s: string | null;
        }
      ).s;
    expect(secretOf()).toBe(signing.token);
    await ok('webhooks.tokens.revoke', { id: signing.id });
    expect(secretOf()).toBeNull();
  });
});
