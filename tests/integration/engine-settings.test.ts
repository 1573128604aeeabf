import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBerth, login, trpc, type Berth } from './helpers/berth';
import { signInAs, startWithAdmin } from './helpers/console';
import { startTlsFront, type TlsFront } from './helpers/tls-front';

/** Settings → Engines over tRPC on a started Berth: a TLS engine added, checked, kept, removed. */
let front: TlsFront;
let berth: Berth;
let admin: string;
let operator: string;
let viewer: string;
const dataDir = mkdtempSync(join(tmpdir(), 'berth-engines-'));
const config = 'engines:\n  - name: fromfile\n    host: 127.0.0.1\n    port: 1\n';

beforeAll(async () => {
  front = await startTlsFront();
  ({ berth, admin } = await startWithAdmin({ dataDir, config }));
  operator = await signInAs(berth, admin, 'operator');
  viewer = await signInAs(berth, admin, 'viewer');
}, 60_000);

afterAll(async () => {
  await berth?.stop();
  await front?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const pem = (name: string) => ({ pem: readFileSync(front.file(name), 'utf8') });
const uploaded = () => ({
  name: 'remote',
  host: '127.0.0.1',
  port: front.port,
  ca: pem('ca.pem'),
  cert: pem('client.pem'),
  key: pem('client-key.pem')
});
type Setting = { name: string; source: string; status: string; apiVersion?: string; keys?: string };

describe('Settings → Engines', () => {
  it('adds an engine from uploaded PEM, health-checked with its version, key never shown', async () => {
    const added = await trpc(berth, admin, 'engine.settings.add', uploaded());
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const local = await trpc(berth, admin, 'engine.system.engines', undefined, 'query');
    const localVersion = (local.body.result?.data as Setting[]).find((e) => e.name === 'local');
    expect(added.body.result?.data).toMatchObject({
      name: 'remote',
      source: 'console',
      status: 'ok',
      tls: true,
      keys: 'stored',
      apiVersion: localVersion?.apiVersion
    });

    // Used at once, without restart: the same containers through TLS as through the socket.
    // Other test files create and remove containers meanwhile: what the socket showed both
    // before and after is in the TLS answer, and the TLS answer holds nothing the socket never had.
    const list = async (input: { engine?: string }) => {
      const res = await trpc(berth, viewer, 'engine.containers.list', input, 'query');
      expect(res.status).toBe(200);
      return (res.body.result?.data as { Id: string }[]).map((c) => c.Id);
    };
    const before = await list({});
    const viaTls = await list({ engine: 'remote' });
    const after = await list({});
    expect(viaTls).toEqual(expect.arrayContaining(before.filter((id) => after.includes(id))));
    for (const id of viaTls) expect(before.includes(id) || after.includes(id)).toBe(true);

    // The key material sits in 0600 files under the data directory, readable by the server only.
    const keyFile = join(berth.dataDir, 'engine-keys', 'remote', 'key.pem');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(berth.dataDir, 'engine-keys', 'remote')).mode & 0o777).toBe(0o700);

    const listed = await trpc(berth, admin, 'engine.settings.list', undefined, 'query');
    const audit = await trpc(berth, admin, 'audit.list', {}, 'query');
    for (const answer of [added, listed, local, audit]) {
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain('PRIVATE KEY');
      expect(text).not.toContain('key.pem');
    }
    expect(berth.output()).not.toContain('PRIVATE KEY');
    expect(listed.body.result?.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'fromfile', source: 'config' }),
        expect.objectContaining({ name: 'remote', source: 'console', keys: 'stored' })
      ])
    );
  });

  it('refuses viewers and operators, and a name berth.yaml already uses', async () => {
    for (const who of [viewer, operator]) {
      const add = await trpc(berth, who, 'engine.settings.add', { ...uploaded(), name: 'sneaky' });
      expect(add.status).toBe(403);
      expect((await trpc(berth, who, 'engine.settings.list', undefined, 'query')).status).toBe(403);
      const remove = await trpc(berth, who, 'engine.settings.remove', { name: 'remote' });
      expect(remove.status).toBe(403);
    }
    const clash = await trpc(berth, admin, 'engine.settings.add', {
      ...uploaded(),
      name: 'fromfile'
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error?.message).toBe('berth.yaml already defines an engine named fromfile');
    const fileOne = await trpc(berth, admin, 'engine.settings.remove', { name: 'fromfile' });
    expect(fileOne.body.error?.message).toBe(
      'engine fromfile comes from berth.yaml: remove it there'
    );
  });

  it('keeps the engine across a restart, then removes it with its files, audited', async () => {
    await berth.stop();
    berth = await startBerth({ dataDir, config });
    admin = await login(berth);
    const engines = await trpc(berth, admin, 'engine.system.engines', undefined, 'query');
    expect(engines.body.result?.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'remote', status: 'ok' })])
    );

    const removed = await trpc(berth, admin, 'engine.settings.remove', { name: 'remote' });
    expect(removed.body.result?.data).toEqual({ removed: 'remote' });
    expect(() => statSync(join(berth.dataDir, 'engine-keys', 'remote'))).toThrow();
    const gone = await trpc(berth, admin, 'engine.containers.list', { engine: 'remote' }, 'query');
    expect(gone.body.error?.message).toBe('no engine named remote');

    const audit = await trpc(berth, admin, 'audit.list', {}, 'query');
    const actions = JSON.stringify(audit.body.result?.data);
    expect(actions).toContain('engine.settings.add');
    expect(actions).toContain('engine.settings.remove');
  });
});
