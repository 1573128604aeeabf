import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, login, startBerth, trpc, type Berth } from './helpers/berth';
import { PASSWORD, startWithAdmin, signInAs } from './helpers/console';
import { berthConfig, OPS, rpcToken } from './helpers/config';
import { startFakeOpenAi, textAnswer, type FakeOpenAi } from './helpers/fake-openai';
import { callRpc } from './helpers/rpc';

/** Settings → Providers over tRPC on a started Berth, against a local OpenAI-compatible fake. */
let fake: FakeOpenAi;
let berth: Berth;
let admin: string;
let operator: string;
let viewer: string;
let config: string;
const SECRET = 'sk-console-secret-5f2a';
const FILE_SECRET = 'sk-file-secret-91c0';
const dataDir = mkdtempSync(join(tmpdir(), 'berth-providers-'));

beforeAll(async () => {
  fake = await startFakeOpenAi();
  config = berthConfig({
    rpcTokens: [rpcToken('ops', OPS)],
    providers: { fromfile: { type: 'openai', baseUrl: fake.url, apiKey: FILE_SECRET } }
  });
  ({ berth, admin } = await startWithAdmin({ dataDir, config }));
  operator = await signInAs(berth, admin, 'operator');
  viewer = await signInAs(berth, admin, 'viewer');
}, 60_000);

afterAll(async () => {
  await berth?.stop();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const data = <T>(r: { body: { result?: { data: unknown } } }) => r.body.result?.data as T;
const input = { name: 'console-llm', baseUrl: '', apiKey: SECRET, model: 'fake-large' };

describe('Settings → Providers', () => {
  it('adds a provider whose key is used for requests and never shown back', async () => {
    const added = await trpc(berth, admin, 'providers.add', { ...input, baseUrl: fake.url });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(data(added)).toEqual({
      name: 'console-llm',
      type: 'openai',
      source: 'console',
      baseUrl: fake.url,
      model: 'fake-large',
      hasKey: true,
      usedBy: []
    });

    const listed = await trpc(berth, admin, 'providers.list', undefined, 'query');
    expect(data<{ name: string; source: string; hasKey: boolean }[]>(listed)).toEqual([
      expect.objectContaining({ name: 'builtin', source: 'builtin', hasKey: false }),
      expect.objectContaining({ name: 'fromfile', source: 'config', hasKey: true }),
      expect.objectContaining({ name: 'console-llm', source: 'console', hasKey: true })
    ]);

    // Test connection: GET {baseUrl}/models with the stored key.
    const before = fake.requests.length;
    const tested = await trpc(berth, admin, 'providers.test', { name: 'console-llm' });
    expect(data(tested)).toEqual({ name: 'console-llm', models: ['fake-small', 'fake-large'] });
    const [models] = fake.requests.slice(before);
    expect(models).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(models!.headers.authorization).toBe(`Bearer ${SECRET}`);

    // An agent picks it at once, and its turns go to the endpoint with the key and model.
    const options = await trpc(berth, viewer, 'agents.options', undefined, 'query');
    expect(data<{ providers: string[] }>(options).providers).toEqual([
      'builtin',
      'console-llm',
      'fromfile'
    ]);
    const agent = await trpc(berth, operator, 'agents.create', {
      name: 'thinker',
      provider: 'console-llm'
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(200);
    fake.script(textAnswer(['from ', 'the console provider']));
    const sent = await callRpc<{ turnId: string }>(berth, OPS, 'agent.sendMessage', {
      agentName: 'thinker',
      message: 'hi'
    });
    let turn: { state: string; result: string | null };
    do
      turn = (await callRpc<typeof turn>(berth, OPS, 'turn.get', { turnId: sent.result!.turnId }))
        .result!;
    while (turn.state === 'queued' || turn.state === 'running');
    expect(turn).toMatchObject({ state: 'completed', result: 'from the console provider' });
    const chat = fake.requests.at(-1)!;
    expect(chat.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(chat.body).toMatchObject({ model: 'fake-large' });

    const audit = await trpc(berth, admin, 'audit.list', {}, 'query');
    expect(JSON.stringify(audit.body)).toContain('provider.settings.add');
    for (const answer of [added, listed, tested, options, audit]) {
      expect(JSON.stringify(answer.body)).not.toContain(SECRET);
      expect(JSON.stringify(answer.body)).not.toContain(FILE_SECRET);
    }
    expect(berth.output()).not.toContain(SECRET);
  });

  it('refuses viewers and operators, a name berth.yaml uses, and a bad URL', async () => {
    for (const who of [viewer, operator]) {
      const add = { ...input, name: 'sneaky', baseUrl: fake.url };
      expect((await trpc(berth, who, 'providers.add', add)).status).toBe(403);
      expect((await trpc(berth, who, 'providers.list', undefined, 'query')).status).toBe(403);
      expect((await trpc(berth, who, 'providers.test', { name: 'fromfile' })).status).toBe(403);
      expect((await trpc(berth, who, 'providers.remove', { name: 'console-llm' })).status).toBe(
        403
      );
    }
    const clash = await trpc(berth, admin, 'providers.add', {
      ...input,
      name: 'fromfile',
      baseUrl: fake.url
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error?.message).toBe('berth.yaml already defines a provider named fromfile');
    const url = await trpc(berth, admin, 'providers.add', {
      ...input,
      name: 'other',
      baseUrl: 'ftp://x'
    });
    expect(url.status).toBe(400);

    // Test connection says in words why an endpoint does not answer.
    const dead = `http://127.0.0.1:${await freePort()}/v1`;
    await trpc(berth, admin, 'providers.add', { name: 'deadend', baseUrl: dead });
    const test = await trpc(berth, admin, 'providers.test', { name: 'deadend' });
    expect(test.status).toBe(400);
    expect(test.body.error?.message).toBe(
      `provider deadend could not reach ${dead}/models: connection refused`
    );
    await trpc(berth, admin, 'providers.remove', { name: 'deadend' });

    const fileOne = await trpc(berth, admin, 'providers.remove', { name: 'fromfile' });
    expect(fileOne.body.error?.message).toBe(
      'provider fromfile comes from berth.yaml: change it there'
    );
  });

  it('keeps the provider across a restart; removes it once no agent uses it, audited', async () => {
    await berth.stop();
    berth = await startBerth({ dataDir, config });
    admin = await login(berth);
    viewer = await login(berth, 'viewer@example.com', PASSWORD);
    const tested = await trpc(berth, admin, 'providers.test', { name: 'console-llm' });
    expect(data<{ models: string[] }>(tested).models).toEqual(['fake-small', 'fake-large']);
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);

    // An edit keeps the stored key unless a new one is given; viewers and file entries refused.
    const edited = await trpc(berth, admin, 'providers.update', {
      name: 'console-llm',
      baseUrl: fake.url,
      model: 'fake-small'
    });
    expect(data(edited)).toMatchObject({ model: 'fake-small', hasKey: true });
    await trpc(berth, admin, 'providers.test', { name: 'console-llm' });
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);
    const rotated = await trpc(berth, admin, 'providers.update', {
      name: 'console-llm',
      baseUrl: fake.url,
      apiKey: 'sk-rotated-key-0b7e'
    });
    expect(data(rotated)).toMatchObject({ model: null, hasKey: true });
    await trpc(berth, admin, 'providers.test', { name: 'console-llm' });
    expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-rotated-key-0b7e');
    expect(JSON.stringify(rotated.body)).not.toContain('sk-rotated-key-0b7e');
    const sneaky = { name: 'console-llm', baseUrl: 'http://127.0.0.1:9/v1' };
    expect((await trpc(berth, viewer, 'providers.update', sneaky)).status).toBe(403);
    const fileOne = await trpc(berth, admin, 'providers.update', { ...sneaky, name: 'fromfile' });
    expect(fileOne.body.error?.message).toBe(
      'provider fromfile comes from berth.yaml: change it there'
    );

    const used = await trpc(berth, admin, 'providers.remove', { name: 'console-llm' });
    expect(used.status).toBe(409);
    expect(used.body.error?.message).toBe(
      'provider console-llm is used by agent thinker: pick another provider for it first'
    );
    expect((await trpc(berth, admin, 'agents.delete', { name: 'thinker' })).status).toBe(200);
    const removed = await trpc(berth, admin, 'providers.remove', { name: 'console-llm' });
    expect(data(removed)).toEqual({ removed: 'console-llm' });
    const listed = await trpc(berth, admin, 'providers.list', undefined, 'query');
    expect(data<{ name: string }[]>(listed).map((p) => p.name)).toEqual(['builtin', 'fromfile']);
    const audit = JSON.stringify((await trpc(berth, admin, 'audit.list', {}, 'query')).body);
    expect(audit).toContain('provider.settings.update');
    expect(audit).toContain('provider.settings.remove');
    expect(audit).not.toContain('sk-rotated-key-0b7e');
  });
});
