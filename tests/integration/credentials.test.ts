import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBerth, trpc, type Berth } from './helpers/berth';
import { ADMIN_ENV, signInAs, startWithAdmin } from './helpers/console';

const CONFIG_TOKEN = 'config-token-secret-0123456789';
const CONFIG_KEY = 'config-api-key-secret-0123456789';
const CONFIG = `gateway:
  rpc:
    auth:
      tokens:
        - { name: ops-config, token: "${CONFIG_TOKEN}", permissions: ["agent.list", "system.health"] }
  rest:
    apiKeys:
      - { name: ci-config, key: "${CONFIG_KEY}", role: viewer }
`;

interface TokenRow {
  id: string;
  name: string;
  prefix: string | null;
  source: 'config' | 'console';
  createdAt: number | null;
  rotatedAt: number | null;
  permissions: string[];
}
interface KeyRow {
  id: string;
  name: string;
  prefix: string | null;
  source: 'config' | 'console';
  createdAt: number | null;
  role: string;
  rotatedAt: number | null;
  lastUsedAt: number | null;
}

describe('credentials over tRPC', () => {
  let berth: Berth;
  let admin: string;
  let viewer: string;

  beforeAll(async () => {
    ({ berth, admin } = await startWithAdmin({ config: CONFIG }));
    viewer = await signInAs(berth, admin, 'viewer');
  });
  afterAll(async () => {
    await berth.stop();
    // After the restart below, the directory is the test's to remove.
    rmSync(berth.dataDir, { recursive: true, force: true });
  });

  const call = (path: string, input?: unknown) => trpc(berth, admin, path, input);
  const query = (path: string, input?: unknown) => trpc(berth, admin, path, input, 'query');
  const data = <T>(res: { body: { result?: { data: unknown } } }) => res.body.result!.data as T;

  function dbRows(table: 'rpc_tokens' | 'api_keys'): Record<string, unknown>[] {
    const db = new Database(join(berth.dataDir, 'berth.db'), { readonly: true });
    try {
      return db.prepare(`select * from ${table}`).all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }

  async function auditActions(): Promise<{ action: string; target: string | null }[]> {
    return data(await query('audit.list', { limit: 200 }));
  }

  it('offers every RPC method and "*" to the permission picker', async () => {
    const methods = data<string[]>(await query('credentials.rpcTokens.methods'));
    expect(methods).toContain('*');
    for (const m of [
      'agent.sendMessage',
      'session.compact',
      'usage.stats',
      'rpc.discover',
      'events.subscribe',
      'turn.cancel',
      'skill.trigger'
    ])
      expect(methods).toContain(m);
    // "*" and the seventeen methods of the spec and product.md, plus events.subscribe,
    // turn.cancel, skill.list and skill.trigger.
    expect(methods).toHaveLength(22);
  });

  it('creates, lists, rotates and revokes an RPC token; the secret leaves only once', async () => {
    const created = await call('credentials.rpcTokens.create', {
      name: 'ci-bot',
      permissions: ['agent.list', 'session.list', 'agent.list']
    });
    expect(created.status).toBe(200);
    const token = data<{ id: string; name: string; token: string; permissions: string[] }>(created);
    expect(token.name).toBe('ci-bot');
    expect(token.permissions).toEqual(['agent.list', 'session.list']);
    expect(token.token).toMatch(/^brt_[a-z2-7]{32}$/);

    const listed = await query('credentials.rpcTokens.list');
    expect(JSON.stringify(listed.body)).not.toContain(token.token);
    const row = data<TokenRow[]>(listed).find((t) => t.id === token.id)!;
    expect(row).toMatchObject({
      name: 'ci-bot',
      source: 'console',
      prefix: token.token.slice(0, 8),
      rotatedAt: null,
      permissions: ['agent.list', 'session.list']
    });
    expect(row.createdAt).toBeGreaterThan(Date.now() - 60_000);

    // SQLite holds a SHA-256 of the secret, never the secret itself.
    const stored = dbRows('rpc_tokens').find((r) => r.id === token.id)!;
    expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token.token);
    expect(JSON.stringify(stored)).not.toContain(token.token.slice(8));

    const rotated = await call('credentials.rpcTokens.rotate', { id: token.id });
    expect(rotated.status).toBe(200);
    const fresh = data<{ id: string; name: string; token: string }>(rotated);
    expect(fresh).toMatchObject({ id: token.id, name: 'ci-bot' });
    expect(fresh.token).not.toBe(token.token);
    const afterRotate = await query('credentials.rpcTokens.list');
    expect(JSON.stringify(afterRotate.body)).not.toContain(fresh.token);
    const rotatedRow = data<TokenRow[]>(afterRotate).find((t) => t.id === token.id)!;
    expect(rotatedRow.prefix).toBe(fresh.token.slice(0, 8));
    expect(rotatedRow.rotatedAt).toBeGreaterThanOrEqual(row.createdAt!);
    const storedAfter = dbRows('rpc_tokens').find((r) => r.id === token.id)!;
    expect(storedAfter.hash).not.toBe(stored.hash);
    expect(JSON.stringify(storedAfter)).not.toContain(fresh.token);

    const revoked = await call('credentials.rpcTokens.revoke', { id: token.id });
    expect(revoked.status).toBe(200);
    expect(data(revoked)).toEqual({ ok: true });
    const afterRevoke = data<TokenRow[]>(await query('credentials.rpcTokens.list'));
    expect(afterRevoke.map((t) => t.id)).not.toContain(token.id);
    expect((await call('credentials.rpcTokens.rotate', { id: token.id })).status).toBe(404);

    const actions = await auditActions();
    for (const action of ['rpc-token.create', 'rpc-token.rotate', 'rpc-token.revoke'])
      expect(actions).toContainEqual(expect.objectContaining({ action, target: 'ci-bot' }));
  });

  it('"*" stands alone, and bad names or permissions are refused with a 400', async () => {
    const all = await call('credentials.rpcTokens.create', {
      name: 'all.of-it_1',
      permissions: ['agent.list', '*']
    });
    expect(all.status).toBe(200);
    expect(data<{ permissions: string[] }>(all).permissions).toEqual(['*']);

    for (const input of [
      { name: 'has space', permissions: ['agent.list'] },
      { name: 'x'.repeat(65), permissions: ['agent.list'] },
      { name: '', permissions: ['agent.list'] },
      { name: 'empty', permissions: [] },
      { name: 'unknown', permissions: ['agent.destroy'] }
    ]) {
      const res = await call('credentials.rpcTokens.create', input);
      expect(res.status, JSON.stringify(input)).toBe(400);
    }
    const duplicate = await call('credentials.rpcTokens.create', {
      name: 'all.of-it_1',
      permissions: ['agent.list']
    });
    expect(duplicate.status).toBe(409);
  });

  it('creates, lists and revokes an API key; the secret leaves only once', async () => {
    const created = await call('credentials.apiKeys.create', { name: 'deploy', role: 'operator' });
    expect(created.status).toBe(200);
    const key = data<{ id: string; name: string; key: string; role: string }>(created);
    expect(key).toMatchObject({ name: 'deploy', role: 'operator' });
    expect(key.key).toMatch(/^brk_[a-z2-7]{32}$/);

    const listed = await query('credentials.apiKeys.list');
    expect(JSON.stringify(listed.body)).not.toContain(key.key);
    expect(data<KeyRow[]>(listed).find((k) => k.id === key.id)).toMatchObject({
      name: 'deploy',
      role: 'operator',
      source: 'console',
      prefix: key.key.slice(0, 8)
    });
    const stored = dbRows('api_keys').find((r) => r.id === key.id)!;
    expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(key.key);

    expect((await call('credentials.apiKeys.create', { name: 'bad', role: 'root' })).status).toBe(
      400
    );

    const revoked = await call('credentials.apiKeys.revoke', { id: key.id });
    expect(revoked.status).toBe(200);
    expect(data(revoked)).toEqual({ ok: true });
    const after = data<KeyRow[]>(await query('credentials.apiKeys.list'));
    expect(after.map((k) => k.id)).not.toContain(key.id);
    expect((await call('credentials.apiKeys.revoke', { id: key.id })).status).toBe(404);

    const actions = await auditActions();
    for (const action of ['api-key.create', 'api-key.revoke'])
      expect(actions).toContainEqual(expect.objectContaining({ action, target: 'deploy' }));
  });

  it('lists config entries as read-only, without secrets, and refuses to change them', async () => {
    const tokens = await query('credentials.rpcTokens.list');
    expect(JSON.stringify(tokens.body)).not.toContain(CONFIG_TOKEN);
    expect(data<TokenRow[]>(tokens)).toContainEqual({
      id: 'config:ops-config',
      name: 'ops-config',
      prefix: null,
      source: 'config',
      createdAt: null,
      rotatedAt: null,
      lastUsedAt: null,
      permissions: ['agent.list', 'system.health']
    });
    const keys = await query('credentials.apiKeys.list');
    expect(JSON.stringify(keys.body)).not.toContain(CONFIG_KEY);
    expect(data<KeyRow[]>(keys)).toContainEqual({
      id: 'config:ci-config',
      name: 'ci-config',
      prefix: null,
      source: 'config',
      createdAt: null,
      rotatedAt: null,
      lastUsedAt: null,
      role: 'viewer'
    });

    for (const [path, id] of [
      ['credentials.rpcTokens.rotate', 'config:ops-config'],
      ['credentials.rpcTokens.revoke', 'config:ops-config'],
      ['credentials.apiKeys.revoke', 'config:ci-config'],
      ['credentials.apiKeys.rotate', 'config:ci-config']
    ] as const) {
      const res = await call(path, { id });
      expect(res.status, path).toBe(400);
      expect(res.body.error!.message).toMatch(/declared in the config file/);
    }
    expect(data<TokenRow[]>(await query('credentials.rpcTokens.list')).map((t) => t.id)).toContain(
      'config:ops-config'
    );
    const clash = await call('credentials.apiKeys.create', { name: 'ci-config', role: 'viewer' });
    expect(clash.status).toBe(409);
  });

  it('rotates an API key (the old secret stops at once) and shows when each key was last used', async () => {
    const { id, key } = data<{ id: string; key: string }>(
      await call('credentials.apiKeys.create', { name: 'rotating', role: 'viewer' })
    );
    const rest = (secret: string) =>
      fetch(`${berth.url}/api/v1/skills/list`, { headers: { authorization: `Bearer ${secret}` } });
    const row = async (keyId: string) =>
      data<KeyRow[]>(await query('credentials.apiKeys.list')).find((k) => k.id === keyId)!;
    expect((await row(id)).lastUsedAt).toBeNull();

    const before = Date.now();
    expect((await rest(key)).status).toBe(200);
    expect((await row(id)).lastUsedAt).toBeGreaterThanOrEqual(before);
    // A config entry's last use is known since start.
    expect((await rest(CONFIG_KEY)).status).toBe(200);
    expect((await row('config:ci-config')).lastUsedAt).toBeGreaterThanOrEqual(before);

    const rotated = await call('credentials.apiKeys.rotate', { id });
    expect(rotated.status).toBe(200);
    const fresh = data<{ id: string; name: string; key: string }>(rotated);
    expect(fresh).toMatchObject({ id, name: 'rotating' });
    expect(fresh.key).toMatch(/^brk_[a-z2-7]{32}$/);
    expect((await rest(key)).status).toBe(401);
    expect((await rest(fresh.key)).status).toBe(200);
    const after = await row(id);
    expect(after).toMatchObject({ prefix: fresh.key.slice(0, 8) });
    expect(after.rotatedAt).toBeGreaterThanOrEqual(before);
    expect(JSON.stringify(dbRows('api_keys'))).not.toContain(fresh.key);
    expect(await auditActions()).toContainEqual(
      expect.objectContaining({ action: 'api-key.rotate', target: 'rotating' })
    );

    // Uses are written every few seconds and at shutdown: a restart keeps them.
    const used = (await row(id)).lastUsedAt!;
    // Stopped without its stop(), which would take the data directory along.
    berth.proc.kill('SIGTERM');
    await berth.exited;
    berth = await startBerth({ config: CONFIG, dataDir: berth.dataDir, env: ADMIN_ENV });
    expect((await row(id)).lastUsedAt).toBe(used);
    expect((await row('config:ci-config')).lastUsedAt).toBeNull();
  });

  it('refuses a viewer (403) and a stranger (401) on every procedure', async () => {
    const { id } = data<{ id: string }>(
      await call('credentials.apiKeys.create', { name: 'kept', role: 'viewer' })
    );
    const { id: tokenId } = data<{ id: string }>(
      await call('credentials.rpcTokens.create', { name: 'kept', permissions: ['*'] })
    );
    const procedures: [string, unknown, 'query' | 'mutation'][] = [
      ['credentials.rpcTokens.list', undefined, 'query'],
      ['credentials.rpcTokens.methods', undefined, 'query'],
      ['credentials.rpcTokens.create', { name: 'sneaky', permissions: ['*'] }, 'mutation'],
      ['credentials.rpcTokens.rotate', { id: tokenId }, 'mutation'],
      ['credentials.rpcTokens.revoke', { id: tokenId }, 'mutation'],
      ['credentials.apiKeys.list', undefined, 'query'],
      ['credentials.apiKeys.create', { name: 'sneaky', role: 'admin' }, 'mutation'],
      ['credentials.apiKeys.rotate', { id }, 'mutation'],
      ['credentials.apiKeys.revoke', { id }, 'mutation']
    ];
    for (const [path, input, kind] of procedures) {
      const denied = await trpc(berth, viewer, path, input, kind);
      expect(denied.status, path).toBe(403);
      expect(JSON.stringify(denied.body)).not.toMatch(/brt_|brk_/);
      expect((await trpc(berth, undefined, path, input, kind)).status, path).toBe(401);
    }
    // Nothing changed behind the refusals.
    const tokens = data<TokenRow[]>(await query('credentials.rpcTokens.list'));
    expect(tokens.find((t) => t.id === tokenId)?.rotatedAt).toBeNull();
    expect(tokens.map((t) => t.name)).not.toContain('sneaky');
    const keys = data<KeyRow[]>(await query('credentials.apiKeys.list'));
    expect(keys.map((k) => k.id)).toContain(id);
    expect(keys.map((k) => k.name)).not.toContain('sneaky');
  });
});
