import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESETS } from '$lib/webhooks/presets';
import { AUTH, hook, openDb, send, TOKEN } from '../fixtures/webhooks';
import { trpc, type Berth } from './helpers/berth';
import { signInAs, startWithAdmin } from './helpers/console';
import { connectSocket, waitFor } from './helpers/sockets';
import { TURN_INPUT } from './helpers/turns';

const config = `
gateway:
  authThrottle: { maxFailures: 100000, windowMs: 60000 }
webhooks:
  enabled: true
  token: "${TOKEN}"
  rateLimit: { maxRequests: 100000, windowMs: 60000 }
`;

type Data = Record<string, unknown>;
const push = PRESETS.find((p) => p.id === 'github-push')!;

describe('the webhook wizard: capture endpoint, test deliveries, GitLab tokens', () => {
  let berth: Berth;
  let admin: string;
  let operator: string;
  let viewer: string;
  let db: Database.Database;
  const call = async <T = Data>(
    cookie: string,
    path: string,
    input?: unknown,
    kind: 'query' | 'mutation' = 'mutation'
  ) => {
    const res = await trpc(berth, cookie, path, input, kind);
    return { status: res.status, data: res.body.result?.data as T, error: res.body.error };
  };

  beforeAll(async () => {
    ({ berth, admin } = await startWithAdmin({ config }));
    operator = await signInAs(berth, admin, 'operator');
    viewer = await signInAs(berth, admin, 'viewer');
    db = openDb(berth.dataDir);
  });
  afterAll(async () => {
    db?.close();
    await berth?.stop();
  });

  it('a capture takes one delivery with its own token, keeps it without secrets for its opener only, then 404s', async () => {
    expect((await call(viewer, 'webhooks.capture.open')).status).toBe(403);
    const opened = await call<{ id: string; token: string; expiresAt: number }>(
      operator,
      'webhooks.capture.open'
    );
    expect(opened.status).toBe(200);
    const { id, token, expiresAt } = opened.data;
    expect(token).toMatch(/^bwc_/);
    expect(expiresAt - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const path = `/hooks/capture/${id}`;

    // Not the webhook token, not a wrong one, not none: 401, and the capture stays open.
    expect((await hook(berth.port, path, push.sample.body, AUTH)).status).toBe(401);
    expect(
      (await hook(berth.port, path, push.sample.body, { 'x-gateway-token': 'nope' })).status
    ).toBe(401);
    expect((await hook(berth.port, path, push.sample.body, {})).status).toBe(401);
    const waiting = await call(operator, 'webhooks.capture.get', { id }, 'query');
    expect(waiting.data).toMatchObject({ id, delivery: null });

    const caught = await hook(berth.port, path, push.sample.body, {
      authorization: `Bearer ${token}`,
      'x-github-event': 'push',
      'x-hub-signature-256': 'sha256=deadbeef',
      cookie: 'sid=secret-cookie'
    });
    expect(caught.status).toBe(200);
    // One delivery only: the same token now finds nothing, as does an unknown id.
    expect(
      (await hook(berth.port, path, { again: true }, { authorization: `Bearer ${token}` })).status
    ).toBe(404);
    expect(
      (
        await hook(
          berth.port,
          '/hooks/capture/aaaaaaaaaaaaaaaa',
          {},
          { authorization: `Bearer ${token}` }
        )
      ).status
    ).toBe(404);

    const got = await call<{ delivery: { headers: Record<string, string>; body: unknown } }>(
      operator,
      'webhooks.capture.get',
      { id },
      'query'
    );
    expect(got.data.delivery.body).toEqual(push.sample.body);
    expect(got.data.delivery.headers['x-github-event']).toBe('push');
    const kept = JSON.stringify(got.data.delivery.headers);
    expect(kept).not.toContain(token);
    expect(kept).not.toContain('deadbeef');
    expect(kept).not.toContain('secret-cookie');
    expect(Object.keys(got.data.delivery.headers)).not.toContain('authorization');

    // Only its opener sees it; nothing reached an agent or the delivery log.
    expect((await call(admin, 'webhooks.capture.get', { id }, 'query')).status).toBe(404);
    expect(db.prepare('select count(*) as n from webhook_deliveries').get()).toEqual({ n: 0 });
    expect(db.prepare('select count(*) as n from turns').get()).toEqual({ n: 0 });
    const stored = JSON.stringify(db.prepare('select * from audit_log').all());
    expect(stored).not.toContain(token);

    // Closed by the wizard: the payload is gone.
    expect((await call(operator, 'webhooks.capture.close', { id })).status).toBe(200);
    expect((await call(operator, 'webhooks.capture.get', { id }, 'query')).status).toBe(404);
  });

  it('refuses a body over 256 KiB without using the capture up, and is 405 to other methods', async () => {
    const { id, token } = (
      await call<{ id: string; token: string }>(operator, 'webhooks.capture.open')
    ).data;
    const auth = { authorization: `Bearer ${token}` };
    const big = await hook(berth.port, `/hooks/capture/${id}`, { blob: 'x'.repeat(300_000) }, auth);
    expect(big.status).toBe(400);
    expect(big.json.message).toMatch(/256 KiB/);
    const get = await send(berth.port, {
      method: 'GET',
      path: `/hooks/capture/${id}`,
      headers: auth
    });
    expect(get.status).toBe(405);
    expect((await hook(berth.port, `/hooks/capture/${id}`, { small: true }, auth)).status).toBe(
      200
    );
    const got = await call<{ delivery: { body: unknown } }>(
      operator,
      'webhooks.capture.get',
      { id },
      'query'
    );
    expect(got.data.delivery.body).toEqual({ small: true });
  });

  it('pushes the delivery to its opener on webhook.capture:<id> as it arrives, and tells the close', async () => {
    const { id, token } = (
      await call<{ id: string; token: string }>(operator, 'webhooks.capture.open')
    ).data;
    const channel = `webhook.capture:${id}`;
    const sockets = await Promise.all(
      [operator, viewer, admin].map((cookie) => connectSocket(berth, cookie))
    );
    const [mine, viewers, others] = sockets;
    try {
      // A viewer by role; an admin who did not open it by owner: neither follows it.
      expect(await viewers!.emitWithAck('room.join', channel)).toEqual({
        ok: false,
        error: `the ${channel} room needs the operator role`
      });
      expect(await others!.emitWithAck('room.join', channel)).toMatchObject({ ok: false });
      expect(await mine!.emitWithAck('room.join', channel)).toEqual({ ok: true });

      const captured = waitFor<{ channel: string; delivery: Data }>(mine!, 'webhook.captured');
      const sentAt = Date.now();
      const res = await hook(berth.port, `/hooks/capture/${id}`, push.sample.body, {
        authorization: `Bearer ${token}`,
        'x-github-event': 'push'
      });
      expect(res.status).toBe(200);
      const got = await captured;
      // Pushed as it arrives (loose: a loaded machine may be slow to carry it).
      expect(Date.now() - sentAt).toBeLessThan(5_000);
      expect(got.channel).toBe(channel);
      // The same shape `webhooks.capture.get` answers, secrets left out.
      const polled = await call<{ delivery: Data }>(
        operator,
        'webhooks.capture.get',
        { id },
        'query'
      );
      expect(got.delivery).toEqual(polled.data.delivery);
      expect(got.delivery.body).toEqual(push.sample.body);
      expect(JSON.stringify(got.delivery)).not.toContain(token);

      const ended = waitFor<{ reason: string }>(mine!, 'webhook.capture.ended');
      expect((await call(operator, 'webhooks.capture.close', { id })).status).toBe(200);
      expect(await ended).toEqual({ channel, reason: 'closed' });
      // Ended: a new join is refused.
      await mine!.emitWithAck('room.leave', channel);
      expect(await mine!.emitWithAck('room.join', channel)).toMatchObject({ ok: false });
    } finally {
      for (const socket of sockets) socket.close();
    }
  });

  it('sends a test delivery through the mapping and reports the logged row with its session', async () => {
    const created = await call(operator, 'webhooks.mappings.create', {
      name: 'gh-push',
      match: push.match,
      message: push.message
    });
    expect(created.status).toBe(200);
    const sent = await call<Data>(operator, 'webhooks.deliveries.test', {
      name: 'gh-push',
      headers: push.sample.headers,
      body: push.sample.body
    });
    expect(sent.status).toBe(200);
    expect(sent.data).toMatchObject({ mapping: 'gh-push', status: 200, matched: true });
    const turn = db
      .prepare(`select ${TURN_INPUT} input, session_id as sessionId from turns where id = ?`)
      .get(sent.data.turnId) as { input: string; sessionId: string };
    expect(turn.input).toBe(
      'Push to acme/web (refs/heads/main) by ada: Fix the login redirect https://github.com/acme/web/compare/6113728f27ae...0d1a26e67d8f'
    );
    expect(sent.data.sessionId).toBe(turn.sessionId);
    expect((sent.data.headers as Data)['x-berth-test-delivery']).toMatch(/@/);
    const listed = await call<Data[]>(operator, 'webhooks.deliveries.list', { limit: 5 }, 'query');
    expect(listed.data[0]).toMatchObject({ id: sent.data.id, sessionId: turn.sessionId });

    // A sample that does not match is logged as ignored; viewers may not send; unknown → 404.
    const ignored = await call<Data>(operator, 'webhooks.deliveries.test', {
      name: 'gh-push',
      headers: { 'x-github-event': 'ping' },
      body: {}
    });
    expect(ignored.data).toMatchObject({ matched: false, turnId: null, sessionId: null });
    expect(
      (await call(viewer, 'webhooks.deliveries.test', { name: 'gh-push', body: {} })).status
    ).toBe(403);
    expect(
      (await call(operator, 'webhooks.deliveries.test', { name: 'nope', body: {} })).status
    ).toBe(404);
  });

  it("accepts GitLab's X-Gitlab-Token and never lets a template or the log see it", async () => {
    await call(operator, 'webhooks.mappings.create', {
      name: 'gl',
      match: { 'headers.x-gitlab-event': 'Push Hook' },
      message: 'Push by {body.user_name} [{headers.x-gitlab-token}]'
    });
    const res = await hook(
      berth.port,
      '/hooks/gl',
      { user_name: 'Ada' },
      {
        'x-gitlab-token': TOKEN,
        'x-gitlab-event': 'Push Hook'
      }
    );
    expect(res.status).toBe(200);
    const input = (
      db.prepare(`select ${TURN_INPUT} input from turns where id = ?`).get(res.json.turnId) as Data
    ).input;
    expect(input).toBe('Push by Ada []');
    const wrong = await hook(berth.port, '/hooks/gl', {}, { 'x-gitlab-token': 'wrong-token' });
    expect(wrong.status).toBe(401);
    const rows = JSON.stringify(db.prepare('select headers from webhook_deliveries').all());
    expect(rows).not.toContain(TOKEN);
    expect(rows).not.toContain('wrong-token');
  });
});
