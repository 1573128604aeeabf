import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trpc, type Berth } from './helpers/berth';
import { signInAs, startWithAdmin } from './helpers/console';

const SECRET = 'webhook-token-secret-0123456789';

describe('Settings → Configuration (tRPC)', () => {
  let berth: Berth;
  let admin: string;
  let viewer: string;
  const config = () => join(berth.dataDir, 'berth.yaml');

  beforeAll(async () => {
    ({ berth, admin } = await startWithAdmin({
      config: `webhooks:\n  token: "\${HOOK_SECRET}"\nagents:\n  - { name: main }\n`,
      env: { HOOK_SECRET: SECRET }
    }));
    viewer = await signInAs(berth, admin, 'viewer');
  });
  afterAll(() => berth.stop());

  type Values = { file: string; values: { key: string; value: string; source: string }[] };
  const values = async () =>
    (await trpc(berth, admin, 'system.config', undefined, 'query')).body.result!.data as Values;

  it('shows every value with its source to admins only, secrets masked', async () => {
    const res = await trpc(berth, admin, 'system.config', undefined, 'query');
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    const shown = (await values()).values;
    expect(shown.find((v) => v.key === 'webhooks.token')).toMatchObject({
      source: 'environment',
      value: '••••••'
    });
    expect(shown.find((v) => v.key === 'agents[0].name')).toMatchObject({
      source: 'file',
      value: '"main"'
    });
    expect(shown.find((v) => v.key === 'server.port')?.source).toBe('environment');
    expect((await trpc(berth, viewer, 'system.config', undefined, 'query')).status).toBe(403);
    expect((await trpc(berth, viewer, 'system.reload')).status).toBe(403);
  });

  it('reloads: a broken file is refused by key path and the old one stays; a good one applies', async () => {
    const good = readFileSync(config(), 'utf8');
    writeFileSync(config(), `${good}gateway:\n  rest:\n    waitMs: "soon"\n  nonsense: 1\n`);
    const refused = await trpc(berth, admin, 'system.reload');
    expect(refused.status).toBe(200);
    const outcome = refused.body.result!.data as { ok: boolean; issues: string[] };
    expect(outcome.ok).toBe(false);
    expect(outcome.issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^gateway\.rest\.waitMs: /),
        'gateway.nonsense: unknown key'
      ])
    );
    expect((await values()).values.find((v) => v.key === 'agents[0].name')?.value).toBe('"main"');

    writeFileSync(config(), good.replace('name: main', 'name: renamed'));
    const applied = (await trpc(berth, admin, 'system.reload')).body.result!.data as {
      ok: boolean;
      changes: string[];
    };
    expect(applied).toMatchObject({ ok: true });
    expect(applied.changes.join(' ')).toContain('agents');
    expect((await values()).values.find((v) => v.key === 'agents[0].name')?.value).toBe(
      '"renamed"'
    );
    const audit = (await trpc(berth, admin, 'audit.list', { action: 'system' }, 'query')).body
      .result!.data as { action: string }[];
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['system.reload', 'system.reload.refused'])
    );
  });
});
