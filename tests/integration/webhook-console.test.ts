import type Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, hook, openDb, TOKEN } from '../fixtures/webhooks';
import { trpc, type Berth } from './helpers/berth';
import { signInAs, startWithAdmin } from './helpers/console';
import { callRpc } from './helpers/rpc';
import { TURN_INPUT } from './helpers/turns';

const RPC_TOKEN = 'rpc-test-token-0123456789abcdef';
const config = (extraMappings = '') => `
gateway:
  authThrottle: { maxFailures: 100000, windowMs: 60000 }
  rpc: { auth: { tokens: [{ name: ops, token: "${RPC_TOKEN}" }] } }
webhooks:
  enabled: true
  token: "${TOKEN}"
  rateLimit: { maxRequests: 100000, windowMs: 60000 }
  mappings:
    shared:
      message: "From the file: {body.text}"
${extraMappings}`;

type Row = Record<string, unknown>;
type Data = Record<string, unknown>;
/** Matchers typed as what they stand for, so object literals stay type-safe. */
const aString = expect.any(String) as unknown as string;
const aNumber = expect.any(Number) as unknown as number;

describe('webhook mappings, tokens and the delivery log from the console', () => {
  let berth: Berth;
  let admin: string;
  let operator: string;
  let viewer: string;
  let db: Database.Database;
  const turnInput = (id: unknown) =>
    (db.prepare(`select ${TURN_INPUT} input from turns where id = ?`).get(id) as Row | undefined)
      ?.input;
  /** A tRPC call that must succeed; its data. */
  const ok = async <T = Data>(
    cookie: string,
    path: string,
    input?: unknown,
    kind: 'query' | 'mutation' = 'mutation'
  ): Promise<T> => {
    const res = await trpc(berth, cookie, path, input, kind);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result!.data as T;
  };

  beforeAll(async () => {
    ({ berth, admin } = await startWithAdmin({ config: config() }));
    operator = await signInAs(berth, admin, 'operator');
    viewer = await signInAs(berth, admin, 'viewer');
    db = openDb(berth.dataDir);
  });
  afterAll(async () => {
    db?.close();
    await berth?.stop();
  });

  it('answers on a created mapping at once, follows an update at once, and 404s once deleted', async () => {
    expect((await hook(berth.port, '/hooks/deploys', { text: 'x' })).status).toBe(404);
    const created = await ok(operator, 'webhooks.mappings.create', {
      name: 'deploys',
      match: { 'body.env': 'prod' },
      message: 'Deployed {body.app}'
    });
    expect(created).toMatchObject({ name: 'deploys', source: 'database', shadowed: false });

    const matched = await hook(berth.port, '/hooks/deploys', { env: 'prod', app: 'api' });
    expect(matched.status).toBe(200);
    expect(matched.json).toMatchObject({ mapping: 'deploys', turnId: aString });
    expect(turnInput(matched.json.turnId)).toBe('Deployed api');
    const ignored = await hook(berth.port, '/hooks/deploys', { env: 'dev', app: 'api' });
    expect(ignored.json).toMatchObject({ message: 'ignored', matched: false });

    await ok(operator, 'webhooks.mappings.update', {
      name: 'deploys',
      match: { 'body.env': 'dev' },
      message: 'Dev deploy of {body.app}'
    });
    const now = await hook(berth.port, '/hooks/deploys', { env: 'dev', app: 'web' });
    expect(now.json).toMatchObject({ turnId: aString });
    expect(turnInput(now.json.turnId)).toBe('Dev deploy of web');

    await ok(operator, 'webhooks.mappings.delete', { name: 'deploys' });
    expect((await hook(berth.port, '/hooks/deploys', { env: 'dev' })).status).toBe(404);
  });

  it('refuses bad mappings naming the field, and a viewer (403)', async () => {
    const bad = await trpc(berth, operator, 'webhooks.mappings.create', {
      name: 'bad',
      match: { 'query.x': 1 },
      message: 'x'
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error!.message).toMatch(/match/);
    const unknownAgent = await trpc(berth, operator, 'webhooks.mappings.create', {
      name: 'bad',
      message: 'x',
      agent: 'ghost'
    });
    expect(unknownAgent.status).toBe(400);
    expect(unknownAgent.body.error!.message).toBe('agent: agent ghost does not exist');
    const builtin = await trpc(berth, operator, 'webhooks.mappings.create', {
      name: 'wake',
      message: 'x'
    });
    expect(builtin.status).toBe(400);

    const denied = await trpc(berth, viewer, 'webhooks.mappings.create', {
      name: 'mine',
      message: 'x'
    });
    expect(denied.status).toBe(403);
    const list = await ok<Data[]>(viewer, 'webhooks.mappings.list', undefined, 'query');
    expect(list.map((m) => m.name)).toEqual(['shared']);
    expect(list[0]).toMatchObject({ source: 'file', shadowed: false });
  });

  it("lets the file's mapping win a name clash; the console's is listed as shadowed", async () => {
    const clash = await trpc(berth, operator, 'webhooks.mappings.create', {
      name: 'shared',
      message: 'x'
    });
    expect(clash.status).toBe(409);

    await ok(operator, 'webhooks.mappings.create', {
      name: 'late',
      message: 'Console: {body.text}'
    });
    const before = await hook(berth.port, '/hooks/late', { text: 'a' });
    expect(turnInput(before.json.turnId)).toBe('Console: a');
    // The file now declares `late` too: after a reload the file's is in force.
    writeFileSync(
      join(berth.dataDir, 'berth.yaml'),
      config('    late:\n      message: "File: {body.text}"\n')
    );
    const reload = await callRpc(berth, RPC_TOKEN, 'system.reload');
    expect(reload.error).toBeUndefined();
    const after = await hook(berth.port, '/hooks/late', { text: 'b' });
    expect(turnInput(after.json.turnId)).toBe('File: b');
    const list = await ok<Data[]>(operator, 'webhooks.mappings.list', undefined, 'query');
    expect(list.filter((m) => m.name === 'late')).toEqual([
      expect.objectContaining({ source: 'file', shadowed: false }),
      expect.objectContaining({ source: 'database', shadowed: true })
    ]);
    const edit = await trpc(berth, operator, 'webhooks.mappings.update', {
      name: 'late',
      message: 'y'
    });
    expect(edit.status).toBe(400);
    await ok(operator, 'webhooks.mappings.delete', { name: 'late' });
    const still = await hook(berth.port, '/hooks/late', { text: 'c' });
    expect(turnInput(still.json.turnId)).toBe('File: c');
  });

  it('accepts a console token beside the file one; rotate and revoke stop the old secret', async () => {
    const wake = (token: string) =>
      hook(berth.port, '/hooks/wake', { text: 'ping' }, { authorization: `Bearer ${token}` });
    const denied = await trpc(berth, operator, 'webhooks.tokens.create', { name: 'ci' });
    expect(denied.status).toBe(403);
    const created = await ok<{ id: string; token: string }>(admin, 'webhooks.tokens.create', {
      name: 'ci'
    });
    expect((await wake(created.token)).status).toBe(200);
    expect((await wake(TOKEN)).status).toBe(200);
    const listed = await ok<Data[]>(admin, 'webhooks.tokens.list', undefined, 'query');
    expect(listed).toEqual([
      expect.objectContaining({ name: 'webhooks.token', source: 'file' }),
      expect.objectContaining({ name: 'ci', source: 'database', lastUsedAt: aNumber })
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const stored = db.prepare('select * from webhook_tokens').all();
    expect(JSON.stringify(stored)).not.toContain(created.token);

    const rotated = await ok<{ token: string }>(admin, 'webhooks.tokens.rotate', {
      id: created.id
    });
    expect((await wake(created.token)).status).toBe(401);
    expect((await wake(rotated.token)).status).toBe(200);

    await ok(admin, 'webhooks.tokens.revoke', { id: created.id });
    expect((await wake(rotated.token)).status).toBe(401);
    const audit = db
      .prepare("select action from audit_log where action like 'webhook.token.%' order by id")
      .all()
      .map((r) => (r as Row).action);
    expect(audit).toEqual(['webhook.token.create', 'webhook.token.rotate', 'webhook.token.revoke']);
  });

  it('logs every delivery without secret headers, pages and filters, and re-runs one', async () => {
    await ok(operator, 'webhooks.mappings.create', {
      name: 'logged',
      match: { 'headers.x-kind': 'build' },
      message: 'Build {body.n}'
    });
    const secrets = {
      'x-gateway-token': TOKEN,
      'x-hub-signature-256': 'sha256=abcdef',
      cookie: 'berth_session=abc'
    };
    const hit = await hook(
      berth.port,
      '/hooks/logged',
      { n: 1 },
      { ...AUTH, ...secrets, 'x-kind': 'build' }
    );
    const miss = await hook(berth.port, '/hooks/logged', { n: 2 }, { ...AUTH, 'x-kind': 'test' });
    const refused = await hook(
      berth.port,
      '/hooks/logged',
      { n: 3 },
      { authorization: 'Bearer wrong-token-000000' }
    );
    expect([hit.status, miss.status, refused.status]).toEqual([200, 200, 401]);

    const page = await ok<Data[]>(
      viewer,
      'webhooks.deliveries.list',
      { mapping: 'logged' },
      'query'
    );
    expect(page.map((d) => [d.status, d.matched])).toEqual([
      [401, null],
      [200, false],
      [200, true]
    ]);
    expect(page[2]).toMatchObject({ kind: 'mapping', turnId: hit.json.turnId });
    expect(page[2]!.durationMs).toEqual(aNumber);
    const older = await ok<Data[]>(
      viewer,
      'webhooks.deliveries.list',
      { mapping: 'logged', before: page[0]!.id, limit: 1 },
      'query'
    );
    expect(older.map((d) => d.id)).toEqual([page[1]!.id]);
    const refusedOnly = await ok<Data[]>(
      viewer,
      'webhooks.deliveries.list',
      { mapping: 'logged', status: 401 },
      'query'
    );
    expect(refusedOnly.map((d) => d.id)).toEqual([page[0]!.id]);

    const detail = await ok<Data>(viewer, 'webhooks.deliveries.get', { id: page[2]!.id }, 'query');
    expect(detail.payload).toBe('{"n":1}');
    expect(detail.headers).toMatchObject({ 'x-kind': 'build' });
    expect(Object.keys(detail.headers as Data).sort()).not.toEqual(
      expect.arrayContaining(['authorization'])
    );
    for (const name of ['authorization', 'x-gateway-token', 'x-hub-signature-256', 'cookie'])
      expect(detail.headers).not.toHaveProperty(name);
    const raw = JSON.stringify(db.prepare('select * from webhook_deliveries').all());
    expect(raw).not.toContain(TOKEN);
    expect(raw).not.toContain('sha256=abcdef');
    expect(raw).not.toContain('wrong-token-000000');

    const wakes = await ok<Data[]>(
      viewer,
      'webhooks.deliveries.list',
      { mapping: 'wake', status: 200 },
      'query'
    );
    expect(wakes[0]).toMatchObject({ kind: 'wake', status: 200, eventId: aString });

    const viewerRerun = await trpc(berth, viewer, 'webhooks.deliveries.rerun', { id: page[2]!.id });
    expect(viewerRerun.status).toBe(403);
    const rerun = await ok<Data>(operator, 'webhooks.deliveries.rerun', { id: page[2]!.id });
    expect(rerun).toMatchObject({ rerunOf: page[2]!.id, matched: true, status: 200 });
    expect(rerun.turnId).not.toBe(hit.json.turnId);
    expect(turnInput(rerun.turnId)).toBe('Build 1');
  });
});
