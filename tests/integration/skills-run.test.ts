import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startBerth, trpc, type Berth } from './helpers/berth';
import { signInAs, startWithAdmin } from './helpers/console';
import { BASE_IMAGE, buildTestImage, removeLabelled } from './helpers/engine';
import { callRpc } from './helpers/rpc';
import {
  containersLabelled,
  startRecordingServer,
  type RecordingServer,
  type SeenCall
} from './helpers/skill-fixtures';

/**
 * Container and http skills run for real: containers on the local engine (from a test image
 * made from the busybox base, labelled berth.test=<run id>), http skills against a server of
 * this test on loopback. Triggered over REST, JSON-RPC and tRPC.
 */
const RUN = `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const LABEL = `berth.test=${RUN}`;
/** Containers standing for another Berth's, from the base image (the test image carries LABEL). */
const OTHER = `berth.test=${RUN}-other`;
const IMAGE = `berth-test/skill-${RUN}:1`;
const KEY = 'skills-rest-key-0123456789abcdef';
const RPC = 'skills-rpc-token-0123456789abcdef';

type Json = Record<string, unknown>;

function skills(port: number) {
  return [
    {
      id: 'upper',
      kind: 'container',
      image: IMAGE,
      // Reads the params JSON from stdin, echoes it with the env params; a line on stderr.
      command: [
        'sh',
        '-c',
        'read -r line; echo "working on $PARAM_TEXT" >&2; printf \'{"stdin":%s,"count":%s}\\n\' "$line" "${PARAM_COUNT:-null}"'
      ],
      paramsSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
        required: ['text']
      },
      timeoutMs: 20000
    },
    {
      id: 'slow',
      kind: 'container',
      image: IMAGE,
      command: ['sleep', '60'],
      timeoutMs: 1500
    },
    {
      id: 'loud',
      kind: 'container',
      image: IMAGE,
      command: ['sh', '-c', 'head -c 100000 /dev/zero | tr "\\0" a'],
      outputMaxBytes: 4096
    },
    {
      id: 'failing',
      kind: 'container',
      image: IMAGE,
      command: ['sh', '-c', 'echo partial; echo broken >&2; exit 3']
    },
    {
      id: 'local-ok',
      kind: 'http',
      url: `http://127.0.0.1:${port}/echo?q={params.q}`,
      body: '{"title": "{params.title}", "n": {params.n}}',
      allowPrivate: true,
      paramsSchema: {
        type: 'object',
        properties: { title: { type: 'string' }, n: { type: 'number' }, q: { type: 'string' } },
        required: ['title']
      }
    },
    {
      id: 'local-fail',
      kind: 'http',
      method: 'GET',
      url: `http://127.0.0.1:${port}/fail`,
      allowPrivate: true
    },
    {
      id: 'relay',
      kind: 'http',
      url: `http://{params.host}:${port}/echo`,
      allowHosts: ['localhost'],
      body: '{}'
    }
  ];
}

describe('container and http skills, run for real', () => {
  let berth: Berth;
  let admin: string;
  let operator: string;
  let endpoint: RecordingServer;
  let port: number;
  let seen: SeenCall[] = [];

  const rest = async (path: string, body?: unknown) => {
    const res = await fetch(`${berth.url}/api/v1${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body)
    });
    return { status: res.status, json: (await res.json()) as Json };
  };
  const trigger = (skill_id: string, params: Json = {}) =>
    rest('/skills/trigger', { skill_id, params });
  const leftovers = () => containersLabelled(LABEL);

  beforeAll(async () => {
    buildTestImage(IMAGE, LABEL);
    endpoint = await startRecordingServer();
    port = endpoint.port;
    seen = endpoint.seen;
    const config = {
      gateway: {
        rest: { apiKeys: [{ name: 'ci', key: KEY, role: 'operator' }], skillWaitMs: 15000 },
        rpc: { auth: { tokens: [{ name: 'ops', token: RPC, permissions: ['*'] }] } }
      },
      skills: skills(port)
    };
    ({ berth, admin } = await startWithAdmin({ config: stringify(config) }));
    operator = await signInAs(berth, admin, 'operator');
  }, 60_000);
  afterAll(async () => {
    await berth?.stop();
    await endpoint?.close();
    removeLabelled(OTHER);
    removeLabelled(LABEL);
  });

  it('runs a container skill: params on stdin and as env, stdout JSON as the result, stderr in the logs', async () => {
    const res = await trigger('upper', { text: 'hi "there"', count: 2 });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({
      status: 'completed',
      exitCode: 0,
      output: { stdin: { text: 'hi "there"', count: 2 }, count: 2 }
    });
    // PARAM_COUNT came as JSON (2), PARAM_TEXT as the raw string, in the stderr line.
    const run = await rest(`/skills/runs/${String(res.json.runId)}`);
    expect(run.json.logs).toContain('working on hi "there"');
    expect(run.json).toMatchObject({ trigger: 'rest', actor: 'ci', exitCode: 0 });
    expect(leftovers()).toBe('');
  });

  it('makes a container skill from an image the build-file studio built', async () => {
    const ws = await trpc(berth, operator, 'buildfiles.workspaces.create', { name: 'skillimg' });
    const workspace = (ws.body.result!.data as { id: string }).id;
    await trpc(berth, operator, 'buildfiles.files.write', {
      workspace,
      path: 'Dockerfile',
      content: `FROM ${IMAGE}\nCMD ["sh", "-c", "cat; echo built >&2"]\n`
    });
    const started = await trpc(berth, operator, 'buildfiles.builds.start', {
      workspace,
      engine: 'local',
      tag: `berth-test/skill-built-${RUN}:1`
    });
    const buildId = (started.body.result!.data as { id: string }).id;
    let build: Json = {};
    for (let i = 0; i < 150 && build.status !== 'succeeded' && build.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      build = (await trpc(berth, operator, 'buildfiles.builds.get', { id: buildId }, 'query')).body
        .result!.data as Json;
    }
    expect(build.status).toBe('succeeded');
    const made = await trpc(berth, operator, 'skills.fromBuild', { buildId, id: 'built' });
    expect(made.body.result?.data).toMatchObject({
      id: 'built',
      source: 'database',
      definition: { kind: 'container', image: build.imageId, engine: 'local' }
    });
    const res = await trigger('built', { hello: 'world' });
    expect(res.json).toMatchObject({ status: 'completed', output: { hello: 'world' } });
  }, 40_000);

  it('records a non-zero exit as a failure with its code, output and logs', async () => {
    const res = await trigger('failing');
    expect(res.json).toMatchObject({ status: 'failed', exitCode: 3, output: 'partial' });
    expect(res.json.error).toBe('exited with code 3');
  });

  it('kills a run past its time-out and leaves no container', async () => {
    const started = Date.now();
    const res = await trigger('slow');
    expect(res.json).toMatchObject({ status: 'failed', error: 'timed out after 1500 ms' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(leftovers()).toBe('');
  });

  it('fails a run that prints more than its output limit', async () => {
    const res = await trigger('loud');
    expect(res.json).toMatchObject({ status: 'failed', error: 'output exceeded 4096 bytes' });
    expect(leftovers()).toBe('');
  });

  it('refuses params failing the schema, naming the field: REST 400, RPC -32602, tRPC BAD_REQUEST', async () => {
    const r = await trigger('upper', { count: 0 });
    expect(r.status).toBe(400);
    expect(String(r.json.detail)).toContain('params.text');
    expect(String(r.json.detail)).toContain('params.count');
    const rpc = await callRpc(berth, RPC, 'skill.trigger', {
      skillId: 'upper',
      params: { text: 5 }
    });
    expect(rpc.error?.code).toBe(-32602);
    expect(JSON.stringify(rpc.error)).toContain('params.text');
    const t = await trpc(berth, operator, 'skills.trigger', { id: 'upper', params: {} });
    expect(t.body.error?.data.code).toBe('BAD_REQUEST');
    expect(t.body.error?.message).toContain('params.text');
  });

  it('runs over RPC and tRPC too, and lists the same skills everywhere', async () => {
    const rpc = await callRpc<Json>(berth, RPC, 'skill.trigger', {
      skillId: 'upper',
      params: { text: 'rpc' }
    });
    expect(rpc.result).toMatchObject({
      status: 'completed',
      output: { stdin: { text: 'rpc' } }
    });
    const listed = await callRpc<{ skills: Json[] }>(berth, RPC, 'skill.list');
    const restList = await rest('/skills/list');
    const ids = listed.result!.skills.map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining(['echo', 'upper', 'local-ok', 'relay']));
    expect((restList.json.skills as Json[]).map((s) => s.id)).toEqual(ids);

    const { body } = await trpc(berth, operator, 'skills.trigger', {
      id: 'upper',
      params: { text: 'console' }
    });
    const runId = (body.result!.data as { runId: string }).runId;
    let run: Json = {};
    for (let i = 0; i < 100 && run.status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = (await trpc(berth, operator, 'skills.getRun', { runId }, 'query')).body.result!
        .data as Json;
    }
    expect(run).toMatchObject({ status: 'completed', trigger: 'console' });
  });

  it('calls an allowed private endpoint with a JSON-escaped body and url-encoded params', async () => {
    const res = await trigger('local-ok', { title: 'say "hi"\n', n: 3, q: 'a&b=c' });
    expect(res.json, JSON.stringify(res.json)).toMatchObject({
      status: 'completed',
      output: { got: { title: 'say "hi"\n', n: 3 }, url: '/echo?q=a%26b%3Dc' }
    });
    expect(seen.at(-1)?.type).toBe('application/json');
    const fail = await trigger('local-fail');
    expect(fail.json).toMatchObject({
      status: 'failed',
      error: 'the endpoint answered 503 Service Unavailable'
    });
  });

  it('refuses a host outside the allow-list, and a listed name resolving to 127.0.0.1', async () => {
    const before = seen.length;
    const other = await trigger('relay', { host: 'example.org' });
    expect(other.json).toMatchObject({
      status: 'failed',
      error: "host example.org is not in this skill's allow-list"
    });
    const local = await trigger('relay', { host: 'localhost' });
    expect(local.json.status).toBe('failed');
    expect(String(local.json.error)).toMatch(/^host localhost resolves to (127\.0\.0\.1|::1)/);
    expect(seen.length).toBe(before);
  });

  it('lets the file win a clash with a console skill after a reload', async () => {
    const def = { id: 'clash', kind: 'http', url: 'https://console.example/x' };
    const saved = await trpc(berth, operator, 'skills.save', { definition: def });
    expect(saved.status).toBe(200);
    writeFileSync(
      join(berth.dataDir, 'berth.yaml'),
      stringify({
        gateway: {
          rest: { apiKeys: [{ name: 'ci', key: KEY, role: 'operator' }], skillWaitMs: 15000 },
          rpc: { auth: { tokens: [{ name: 'ops', token: RPC, permissions: ['*'] }] } }
        },
        skills: [...skills(port), { ...def, url: 'https://file.example/x' }]
      })
    );
    const reload = await callRpc(berth, RPC, 'system.reload');
    expect(reload.error).toBeUndefined();
    const list = (await trpc(berth, operator, 'skills.list', undefined, 'query')).body.result!
      .data as Json[];
    const clash = list.filter((s) => s.id === 'clash');
    expect(clash).toEqual([
      expect.objectContaining({
        source: 'file',
        shadowed: false,
        definition: expect.objectContaining({ url: 'https://file.example/x' }) as unknown
      }),
      expect.objectContaining({ source: 'database', shadowed: true })
    ]);
    const refused = await trpc(berth, operator, 'skills.save', { definition: def });
    expect(refused.body.error?.message).toContain('declared in the config file');
  });
  it("at start removes the containers of its own unfinished runs, never another Berth's", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-it-'));
    const config = stringify({
      gateway: { rest: { apiKeys: [{ name: 'ci', key: KEY, role: 'operator' }], skillWaitMs: 0 } },
      skills: [{ id: 'sleepy', kind: 'container', image: IMAGE, command: ['sleep', '60'] }]
    });
    // A run another Berth on the same engine has going.
    const foreign = execFileSync(
      'docker',
      ['run', '-d', '--label', OTHER, '--label', 'berth.skill.run=another-berths-run'].concat([
        BASE_IMAGE,
        'sleep',
        '60'
      ]),
      { encoding: 'utf8' }
    ).trim();
    let killed: Berth | undefined = await startBerth({ config, dataDir });
    let again: Berth | undefined;
    try {
      const res = await fetch(`${killed.url}/api/v1/skills/trigger`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ skill_id: 'sleepy' })
      });
      const { runId } = (await res.json()) as { runId: string };
      const mine = `berth.skill.run=${runId}`;
      for (let i = 0; i < 100 && containersLabelled(mine) === ''; i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(containersLabelled(mine)).not.toBe('');
      await killed.stop('SIGKILL');
      killed = undefined;
      expect(containersLabelled(mine)).not.toBe('');

      again = await startBerth({ config, dataDir });
      const started = again;
      for (let i = 0; i < 100 && !started.output().includes('unfinished skill runs'); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(started.output()).toContain('"containers":1');
      expect(containersLabelled(mine)).toBe('');
      expect(containersLabelled('berth.skill.run=another-berths-run')).toBe(foreign.slice(0, 12));
      const run = await fetch(`${again.url}/api/v1/skills/runs/${runId}`, {
        headers: { authorization: `Bearer ${KEY}` }
      });
      expect(await run.json()).toMatchObject({
        status: 'failed',
        error: 'interrupted by a restart'
      });
    } finally {
      await killed?.stop('SIGKILL');
      await again?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 40_000);
});
