import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, startBerth, trpc, type Berth } from './helpers/berth';
import { berthConfig, OPS, rpcToken } from './helpers/config';
import { ADMIN_ENV, signInAs } from './helpers/console';
import { callRpc } from './helpers/rpc';
import { openRpcWs } from './helpers/sockets';

const REST_KEY = 'ci-operator-key-0123456789abcdef';
const HOOK = 'webhook-token-0123456789abcdef';
// `agents` comes last: a test appends an agent to the file.
const CONFIG = berthConfig({
  rpcTokens: [rpcToken('ops', OPS)],
  apiKeys: [{ name: 'ci', key: REST_KEY, role: 'operator' }],
  webhookToken: HOOK,
  agents: [{ name: 'main', provider: 'builtin' }]
});

interface RpcAnswer {
  result?: Record<string, unknown>;
  error?: { code: number; data?: { detail: string } };
}

describe('agents made in the console', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-agents-'));
  let berth: Berth;
  let operator: string;
  let viewer: string;

  const start = async () => {
    berth = await startBerth({ dataDir, config: CONFIG, env: ADMIN_ENV });
  };
  beforeAll(async () => {
    await start();
    const admin = await login(berth);
    operator = await signInAs(berth, admin, 'operator');
    viewer = await signInAs(berth, admin, 'viewer');
  });
  afterAll(async () => {
    await berth.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const rpc = async (method: string, params: unknown = {}): Promise<RpcAnswer> =>
    (await callRpc(berth, OPS, method, params)) as RpcAnswer;
  const post = async (path: string, token: string, body: unknown) => {
    const res = await fetch(`${berth.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body)
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const chat = (agent: string) =>
    post('/api/v1/chat/send', REST_KEY, { message: 'hello there', agent });
  const agentNames = async () =>
    ((await rpc('agent.list')).result!.agents as { name: string }[]).map((a) => a.name);

  it('an operator creates an agent that RPC, REST and /rpc/ws see at once', async () => {
    const ws = await openRpcWs(berth, { authorization: `Bearer ${OPS}` });
    const heard: unknown[] = [];
    ws.on('message', (data: Buffer) => heard.push(JSON.parse(data.toString())));
    ws.send('{"jsonrpc":"2.0","method":"events.subscribe","params":{"topics":["agent.*"]},"id":1}');
    await new Promise((r) => setTimeout(r, 100));

    const created = await trpc(berth, operator, 'agents.create', {
      name: 'helper',
      description: 'Answers from the console',
      provider: 'builtin',
      skills: ['echo'],
      heartbeatMs: 60_000
    });
    expect(created.status).toBe(200);
    expect(created.body.result!.data).toMatchObject({ name: 'helper', source: 'console' });

    expect((await rpc('agent.list')).result!.agents).toContainEqual({
      name: 'helper',
      description: 'Answers from the console',
      state: 'idle',
      provider: 'builtin',
      model: null
    });
    const status = (await rpc('agent.status', { agentName: 'helper' })).result!;
    expect(status.nextHeartbeatAt).toBeGreaterThan(Date.now());

    const reply = await chat('helper');
    expect(reply.status).toBe(200);
    expect(reply.body.reply).toContain('builtin provider');

    const sent = (await rpc('agent.sendMessage', { agentName: 'helper', message: 'help' })).result!;
    expect(sent.status).toBe('queued');
    const deadline = Date.now() + 10_000;
    let turn: Record<string, unknown> = {};
    while (Date.now() < deadline && turn.state !== 'completed') {
      turn = (await rpc('turn.get', { turnId: sent.turnId })).result!;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(turn).toMatchObject({ state: 'completed', agentName: 'helper' });
    expect(turn.result).toContain('I am the builtin provider');

    expect(heard).toContainEqual({
      jsonrpc: '2.0',
      method: 'notify',
      params: {
        topic: 'agent.changed',
        data: { name: 'helper', change: 'created', state: 'idle' }
      }
    });
    ws.close();
  });

  it('refuses conflicts, unknown providers and config agents, and viewers', async () => {
    const taken = await trpc(berth, operator, 'agents.create', {
      name: 'main',
      provider: 'builtin'
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error!.message).toBe('An agent named main is declared in the config file');
    const unknown = await trpc(berth, operator, 'agents.create', { name: 'x', provider: 'gpt-9' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error!.message).toContain('unknown provider gpt-9');
    const config = await trpc(berth, operator, 'agents.setDisabled', {
      name: 'main',
      disabled: true
    });
    expect(config.body.error!.message).toBe(
      'Agent main is declared in the config file; change it there'
    );

    const denied = await trpc(berth, viewer, 'agents.create', { name: 'v', provider: 'builtin' });
    expect(denied.status).toBe(403);
    const list = await trpc(berth, viewer, 'agents.list', undefined, 'query');
    expect(list.status).toBe(200);
    expect((list.body.result!.data as { name: string }[]).map((a) => a.name)).toEqual([
      'main',
      'helper'
    ]);
    expect(await agentNames()).toEqual(['main', 'helper']);
  });

  it('a disabled agent refuses messages on every interface until enabled again', async () => {
    const off = await trpc(berth, operator, 'agents.setDisabled', {
      name: 'helper',
      disabled: true
    });
    expect(off.body.result!.data).toMatchObject({ disabled: true, state: 'disabled' });
    const refused = 'Agent helper is disabled; enable it to send it work';
    expect(await rpc('agent.sendMessage', { agentName: 'helper', message: 'hi' })).toMatchObject({
      error: { code: -32602, data: { detail: refused } }
    });
    expect(await chat('helper')).toMatchObject({ status: 400, body: { detail: refused } });
    expect(await post('/hooks/agent', HOOK, { message: 'hi', agent: 'helper' })).toMatchObject({
      status: 400,
      body: { error: 'bad_request', message: refused }
    });
    expect((await rpc('agent.status', { agentName: 'helper' })).result).toMatchObject({
      state: 'disabled',
      nextHeartbeatAt: null
    });

    await trpc(berth, operator, 'agents.setDisabled', { name: 'helper', disabled: false });
    expect((await chat('helper')).status).toBe(200);
  });

  it('keeps console agents across a restart, and the config wins a name it comes to declare', async () => {
    await berth.stop();
    await start();
    expect(await agentNames()).toEqual(['main', 'helper']);

    const file = join(dataDir, 'berth.yaml');
    writeFileSync(
      file,
      `${readFileSync(file, 'utf8')}  - { name: helper, description: from the file }\n`
    );
    expect((await rpc('system.reload')).result).toMatchObject({ reloaded: true });
    const admin = await login(berth);
    const views = (await trpc(berth, admin, 'agents.list', undefined, 'query')).body.result!
      .data as { name: string; source: string; state: string }[];
    expect(views.filter((v) => v.name === 'helper').map((v) => [v.source, v.state])).toEqual([
      ['config', 'idle'],
      ['console', 'shadowed']
    ]);
    writeFileSync(file, CONFIG);
    expect((await rpc('system.reload')).result).toMatchObject({ reloaded: true });
  });

  it('deleting an agent is audited, and it is gone everywhere', async () => {
    const admin = await login(berth);
    const res = await trpc(berth, admin, 'agents.delete', { name: 'helper' });
    expect(res.status).toBe(200);
    expect(await agentNames()).toEqual(['main']);
    expect(await rpc('agent.sendMessage', { agentName: 'helper', message: 'hi' })).toMatchObject({
      error: { code: -32602, data: { detail: 'Agent helper not found' } }
    });
    const audit = (await trpc(berth, admin, 'audit.list', { limit: 50 }, 'query')).body.result!
      .data as { action: string; target: string }[];
    expect(audit.filter((e) => e.target === 'helper').map((e) => e.action)).toEqual([
      'agent.delete',
      'agent.enable',
      'agent.disable',
      'agent.create'
    ]);
  });
});
