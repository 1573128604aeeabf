import Database from 'better-sqlite3';
import { createServer, request, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startBerth, type Berth } from './helpers/berth';

const KEYS = {
  ci: 'ci-operator-key-0123456789abcdef',
  dash: 'dash-viewer-key-0123456789abcdef',
  root: 'root-admin-key-0123456789abcdef'
};

// Keys reach the config through environment references, as the spec recommends.
const CONFIG = `
gateway:
  rest:
    apiKeys:
      - { name: ci, key: "\${REST_CI_KEY}", role: operator }
      - { name: dash, key: "\${REST_DASH_KEY}", role: viewer }
      - { name: root, key: "\${REST_ROOT_KEY}", role: admin }
agents:
  - { name: main, heartbeatMs: 1000 }
  - { name: second }
`;

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown>;
}

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
}

interface CallOptions {
  key?: string | null;
  body?: unknown;
  raw?: string;
  type?: string;
}

/** One request under /api/v1, with the ci key unless another (or none: null) is given. */
async function restCall(
  berth: Berth,
  method: string,
  path: string,
  options: CallOptions = {}
): Promise<Reply> {
  const key = options.key === undefined ? KEYS.ci : options.key;
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.raw !== undefined || options.body !== undefined) {
    body = options.raw ?? JSON.stringify(options.body);
    headers['content-type'] = options.type ?? 'application/json';
  }
  const res = await fetch(`${berth.url}/api/v1${path}`, { method, headers, body });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON (SSE, empty)
  }
  return { status: res.status, headers: res.headers, text, json };
}

describe('REST v1', () => {
  let berth: Berth;

  beforeAll(async () => {
    berth = await startBerth({
      config: CONFIG,
      env: { REST_CI_KEY: KEYS.ci, REST_DASH_KEY: KEYS.dash, REST_ROOT_KEY: KEYS.root }
    });
  });
  afterAll(() => berth.stop());

  const call = (method: string, path: string, options?: CallOptions) =>
    restCall(berth, method, path, options);

  function expectProblem(reply: Reply, status: number, detail?: RegExp): Problem {
    expect(reply.status).toBe(status);
    expect(reply.headers.get('content-type')).toBe('application/problem+json');
    const problem = reply.json as unknown as Problem;
    expect(problem).toEqual({
      type: expect.any(String) as string,
      title: expect.any(String) as string,
      status,
      detail: expect.any(String) as string
    });
    expect(reply.text).not.toMatch(/\bat .+:\d+:\d+|node_modules|\.ts:\d+/);
    if (detail) expect(problem.detail).toMatch(detail);
    return problem;
  }

  describe('authentication and roles', () => {
    it('refuses a missing or unknown key with 401 and WWW-Authenticate: Bearer', async () => {
      for (const key of [null, 'not-a-real-key-0123456789']) {
        for (const [method, path] of [
          ['GET', '/skills/list'],
          ['POST', '/chat/send'],
          ['POST', '/skills/trigger'],
          ['GET', '/turns/some-id']
        ] as const) {
          const body = method === 'POST' ? { message: 'hi' } : undefined;
          const reply = await call(method, path, { key, body });
          expectProblem(reply, 401);
          expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
        }
      }
    });

    it('refuses a key in the query string with a 400 problem, with or without the header', async () => {
      for (const [query, key] of [
        [`api_key=${KEYS.ci}`, null],
        [`api_key=${KEYS.ci}`, KEYS.ci],
        ['access_token=x', KEYS.ci],
        [`q=${KEYS.ci}`, KEYS.ci]
      ] as const) {
        const reply = await call('GET', `/skills/list?${query}`, { key });
        expectProblem(reply, 400, /Authorization header, never in the URL/);
      }
      expect((await call('GET', '/skills/list?verbose=1')).status).toBe(200);
    });

    it('lets a viewer read but answers 403 to its POSTs', async () => {
      expect((await call('GET', '/skills/list', { key: KEYS.dash })).status).toBe(200);
      expectProblem(
        await call('POST', '/chat/send', { key: KEYS.dash, body: { message: 'hi' } }),
        403,
        /viewer/
      );
      expectProblem(
        await call('POST', '/skills/trigger', { key: KEYS.dash, body: { skill_id: 'echo' } }),
        403
      );
    });

    it('lets an admin key POST too', async () => {
      const reply = await call('POST', '/skills/trigger', {
        key: KEYS.root,
        body: { skill_id: 'echo', params: { by: 'root' } }
      });
      expect(reply.status).toBe(200);
      expect(reply.json.output).toEqual({ by: 'root' });
    });
  });

  describe('errors', () => {
    it('answers unknown paths under /api/v1 with a 404 problem, never a page', async () => {
      // The operations are public knowledge: 404 and 405 need no key.
      expectProblem(await call('GET', '/nothing/here', { key: null }), 404);
      expectProblem(await call('PUT', '/chat/send', { key: null }), 405);
      expectProblem(await call('GET', '/nothing/here'), 404);
      expectProblem(await call('GET', ''), 404);
      expectProblem(await call('GET', '/turns/a/b'), 404);
      expectProblem(await call('POST', '/chat'), 404);
    });

    it('answers another method with 405 and Allow', async () => {
      const get = await call('GET', '/chat/send');
      expectProblem(get, 405);
      expect(get.headers.get('allow')).toBe('POST');
      const post = await call('POST', '/skills/list', { body: {} });
      expectProblem(post, 405);
      expect(post.headers.get('allow')).toBe('GET');
      const del = await call('DELETE', '/turns/some-id');
      expectProblem(del, 405);
      expect(del.headers.get('allow')).toBe('GET');
    });

    it('answers 415 to a body that is not JSON', async () => {
      expectProblem(
        await call('POST', '/chat/send', { raw: 'message=hi', type: 'text/plain' }),
        415,
        /application\/json/
      );
    });

    it('answers 413 to a body declared over the limit, before reading it', async () => {
      const big = JSON.stringify({ message: 'x'.repeat(1024 * 1024 + 10) });
      expectProblem(await call('POST', '/chat/send', { raw: big }), 413);
    });

    it('answers 413 to a chunked body once it passes the limit, without a reset', async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: berth.port,
            method: 'POST',
            path: '/api/v1/chat/send',
            headers: { authorization: `Bearer ${KEYS.ci}`, 'content-type': 'application/json' }
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          }
        );
        req.on('error', reject);
        req.write('{"message":"');
        const chunk = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 20; i++) req.write(chunk);
        req.end('"}');
      });
      expect(status).toBe(413);
    });

    it('answers 400 to malformed JSON, too-deep JSON, and fields of the wrong type', async () => {
      expectProblem(await call('POST', '/chat/send', { raw: '{"message":' }), 400, /JSON/);
      expectProblem(
        await call('POST', '/chat/send', { raw: `${'['.repeat(40)}${']'.repeat(40)}` }),
        400,
        /deeper/
      );
      expectProblem(await call('POST', '/chat/send', { body: [1, 2] }), 400, /object/);
      expectProblem(await call('POST', '/chat/send', { body: {} }), 400, /^message: /);
      expectProblem(await call('POST', '/chat/send', { body: { message: 42 } }), 400, /message/);
      expectProblem(
        await call('POST', '/chat/send', { body: { message: 'hi', stream: 'yes' } }),
        400,
        /stream/
      );
      expectProblem(
        await call('POST', '/chat/send', { body: { message: 'hi', skill_ids: 'echo' } }),
        400,
        /skill_ids/
      );
      expectProblem(
        await call('POST', '/chat/send', { body: { message: 'hi', skill_ids: ['nope'] } }),
        400,
        /skill_ids: unknown skill nope/
      );
      expectProblem(
        await call('POST', '/chat/send', { body: { message: 'hi', agent: 'ghost' } }),
        400,
        /agent/
      );
      expectProblem(await call('POST', '/skills/trigger', { body: {} }), 400, /skill_id/);
      expectProblem(
        await call('POST', '/skills/trigger', { body: { skill_id: 'echo', params: [1] } }),
        400,
        /params/
      );
    });
  });

  describe('POST /chat/send', () => {
    it('answers 200 with the builtin reply once the turn completes', async () => {
      const reply = await call('POST', '/chat/send', { body: { message: 'help' } });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.json).toMatchObject({
        messageId: expect.any(String) as string,
        sessionId: expect.any(String) as string,
        turnId: expect.any(String) as string,
        status: 'completed'
      });
      expect(reply.json.reply).toMatch(/builtin/);

      // The turn can be followed by id, and it ran on the key's own session.
      const turn = await call('GET', `/turns/${String(reply.json.turnId)}`, { key: KEYS.dash });
      expect(turn.status).toBe(200);
      expect(turn.json).toMatchObject({
        turnId: reply.json.turnId,
        sessionId: reply.json.sessionId,
        agentName: 'main',
        state: 'completed',
        source: 'rest',
        result: reply.json.reply,
        error: null
      });
      expect(turn.json.startedAt).toEqual(expect.any(Number));
      expect(turn.json.finishedAt).toEqual(expect.any(Number));

      // Same key, default session → same session; another session key → another session.
      const again = await call('POST', '/chat/send', { body: { message: 'status' } });
      expect(again.json.sessionId).toBe(reply.json.sessionId);
      const other = await call('POST', '/chat/send', {
        body: { message: 'status', session: 'rest:elsewhere', agent: 'second', skill_ids: [] }
      });
      expect(other.status).toBe(200);
      expect(other.json.sessionId).not.toBe(reply.json.sessionId);
      expect(other.json.reply).toMatch(/^Agent second:/);
    });

    it('runs /skill echo with skill_ids and returns the echo output', async () => {
      const reply = await call('POST', '/chat/send', {
        body: { message: '/skill echo {"a":1}', skill_ids: ['echo'] }
      });
      expect(reply.status).toBe(200);
      expect(reply.json.status).toBe('completed');
      expect(reply.json.reply).toContain('{"a":1}');
      // The skills the caller asked to involve are kept with the turn.
      const db = new Database(join(berth.dataDir, 'berth.db'), { readonly: true });
      const row = db
        .prepare('select context, source, user_id as userId from turns where id = ?')
        .get(reply.json.turnId) as { context: string; source: string; userId: string };
      db.close();
      expect(JSON.parse(row.context)).toEqual({ skillIds: ['echo'], apiKey: 'ci' });
      expect(row).toMatchObject({ source: 'rest', userId: 'ci' });
    });

    it('streams turn.started, message.delta… and turn.completed as text/event-stream', async () => {
      const res = await fetch(`${berth.url}/api/v1/chat/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEYS.ci}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'help', stream: true })
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = parseSse(await res.text());
      expect(events[0]?.event).toBe('turn.started');
      const started = events[0]!.data as { turnId: string; sessionId: string; messageId: string };
      expect(started).toEqual({
        turnId: expect.any(String) as string,
        sessionId: expect.any(String) as string,
        messageId: expect.any(String) as string
      });
      const deltas = events.filter((e) => e.event === 'message.delta');
      expect(deltas.length).toBeGreaterThan(1);
      const last = events[events.length - 1]!;
      expect(last.event).toBe('turn.completed');
      expect(events.slice(1, -1).every((e) => e.event === 'message.delta')).toBe(true);
      const done = last.data as { reply: string; usage: { prompt: number; completion: number } };
      expect(done.reply).toMatch(/builtin/);
      expect(done.reply).toBe(deltas.map((d) => (d.data as { text: string }).text).join(''));
      expect(done.usage.completion).toBeGreaterThan(0);

      const turn = await call('GET', `/turns/${started.turnId}`);
      expect(turn.json).toMatchObject({ state: 'completed', result: done.reply });
    });

    it('lets a streaming client go away mid-turn; the turn still completes', async () => {
      const abort = new AbortController();
      const res = await fetch(`${berth.url}/api/v1/chat/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEYS.ci}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'help', stream: true }),
        signal: abort.signal
      });
      const reader = res.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      const started = parseSse(first.split('\n\n')[0]!)[0]!;
      expect(started.event).toBe('turn.started');
      abort.abort();
      const { turnId } = started.data as { turnId: string };
      let turn = await call('GET', `/turns/${turnId}`);
      for (let i = 0; i < 50 && turn.json.state !== 'completed'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        turn = await call('GET', `/turns/${turnId}`);
      }
      expect(turn.json.state).toBe('completed');
      expect(berth.proc.exitCode).toBeNull();
    });

    it('still refuses a bad streaming request with a problem, not a stream', async () => {
      expectProblem(
        await call('POST', '/chat/send', { body: { message: '', stream: true } }),
        400,
        /message/
      );
    });
  });

  describe('skills', () => {
    it('lists echo and engine.containers with JSON Schemas for their params', async () => {
      const reply = await call('GET', '/skills/list', { key: KEYS.dash });
      expect(reply.status).toBe(200);
      const skills = reply.json.skills as {
        id: string;
        name: string;
        description: string;
        kind: string;
        paramsSchema: { type?: string; properties?: Record<string, unknown> };
      }[];
      const echo = skills.find((s) => s.id === 'echo');
      const containers = skills.find((s) => s.id === 'engine.containers');
      for (const skill of [echo, containers]) {
        expect(skill).toMatchObject({
          name: expect.any(String) as string,
          description: expect.any(String) as string,
          kind: 'builtin'
        });
        expect(skill?.paramsSchema.type).toBe('object');
      }
      expect(containers?.paramsSchema.properties).toHaveProperty('all');
    });

    it('triggers echo: 200 with the params as output, then reads the run back', async () => {
      const params = { greeting: 'hello', n: [1, 2] };
      const reply = await call('POST', '/skills/trigger', { body: { skill_id: 'echo', params } });
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({
        runId: expect.any(String) as string,
        status: 'completed',
        output: params,
        exitCode: 0,
        durationMs: expect.any(Number) as number
      });
      const run = await call('GET', `/skills/runs/${String(reply.json.runId)}`, { key: KEYS.dash });
      expect(run.status).toBe(200);
      expect(run.json).toMatchObject({
        runId: reply.json.runId,
        skillId: 'echo',
        status: 'completed',
        output: params,
        params,
        trigger: 'rest',
        actor: 'ci'
      });
      // params may be left out: an empty object.
      const empty = await call('POST', '/skills/trigger', { body: { skill_id: 'echo' } });
      expect(empty.json).toMatchObject({ status: 'completed', output: {} });
    });

    it('runs engine.containers against the real engine and returns an array', async () => {
      const reply = await call('POST', '/skills/trigger', {
        body: { skill_id: 'engine.containers', params: { all: true } }
      });
      expect(reply.status).toBe(200);
      expect(reply.json.status).toBe('completed');
      expect(Array.isArray(reply.json.output)).toBe(true);
      for (const c of reply.json.output as { id: string; state: string }[]) {
        expect(c.id).toMatch(/^[0-9a-f]{12}$/);
        expect(typeof c.state).toBe('string');
      }
    });

    it('answers 404 to an unknown skill or run, 400 to params failing the schema', async () => {
      expectProblem(
        await call('POST', '/skills/trigger', { body: { skill_id: 'no.such.skill' } }),
        404,
        /no\.such\.skill/
      );
      expectProblem(
        await call('POST', '/skills/trigger', {
          body: { skill_id: 'engine.containers', params: { all: 'yes' } }
        }),
        400,
        /all/
      );
      expectProblem(await call('GET', '/skills/runs/00000000-0000-0000-0000-000000000000'), 404);
    });
  });

  describe('reads by id', () => {
    it('answers 404 to unknown turns and events', async () => {
      expectProblem(await call('GET', '/turns/unknown-turn'), 404, /Turn/);
      expectProblem(await call('GET', '/events/unknown-event'), 404, /Event/);
    });

    it('reads an event back, and follows it to the heartbeat turn that handled it', async () => {
      // No webhook adapter on this branch: the event is queued as /wake would, in the same
      // SQLite file; the running server's heartbeat (1 s for main) takes it into a turn.
      const eventId = crypto.randomUUID();
      const createdAt = Date.now();
      const db = new Database(join(berth.dataDir, 'berth.db'));
      db.prepare(
        `insert into system_events (id, agent_name, state, text, metadata, source, created_at)
         values (?, 'main', 'queued', 'deploy finished', ?, 'test', ?)`
      ).run(eventId, JSON.stringify({ source: 'ci', event: 'deploy' }), createdAt);
      db.close();

      const first = await call('GET', `/events/${eventId}`, { key: KEYS.dash });
      expect(first.status).toBe(200);
      expect(first.json).toMatchObject({
        eventId,
        agentName: 'main',
        text: 'deploy finished',
        metadata: { source: 'ci', event: 'deploy' },
        createdAt
      });
      expect(Object.keys(first.json).sort()).toEqual([
        'agentName',
        'createdAt',
        'eventId',
        'metadata',
        'processedAt',
        'state',
        'text',
        'turnId'
      ]);

      let event = first.json;
      const deadline = Date.now() + 10_000;
      while (event.state !== 'done' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        event = (await call('GET', `/events/${eventId}`)).json;
      }
      expect(event).toMatchObject({ state: 'done', turnId: expect.any(String) as string });
      expect(event.processedAt).toEqual(expect.any(Number));
      const turn = await call('GET', `/turns/${String(event.turnId)}`);
      expect(turn.json).toMatchObject({ source: 'heartbeat', state: 'completed' });
      expect(turn.json.result).toMatch(/Noted 1 system event/);
    });
  });

  it('counts REST requests in /metrics by key name, never by key', async () => {
    await call('GET', '/skills/list');
    const text = await (await fetch(`${berth.url}/metrics`)).text();
    expect(text).toMatch(
      /berth_http_requests_total\{interface="rest",route="\/api\/v1\/skills\/list",status="200",token="ci"\} [1-9]/
    );
    expect(text).toMatch(
      /berth_http_requests_total\{interface="rest",[^}]*status="403",token="dash"\}/
    );
    expect(text).toMatch(
      /berth_http_requests_total\{interface="rest",[^}]*status="401",token=""\}/
    );
    for (const key of Object.values(KEYS)) expect(text).not.toContain(key);
  });
});

describe('REST v1 while the work goes on (202)', () => {
  /*
   * An engine that answers /_ping and holds every other request: engine.containers, and a turn
   * running it, stay `running` until the test answers the held requests.
   */
  const held: ServerResponse[] = [];
  const engine = createServer((req, res) => {
    if (req.url === '/_ping') res.writeHead(200, { 'Api-Version': '1.45' }).end('OK');
    // The start's look for containers of unfinished skill runs: none here.
    else if (decodeURIComponent(req.url ?? '').includes('berth.skill.run'))
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    else held.push(res);
  });
  const release = () => {
    for (const res of held.splice(0))
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  };
  let berth: Berth;
  const call = (method: string, path: string, options?: CallOptions) =>
    restCall(berth, method, path, options);

  beforeAll(async () => {
    const enginePort = await freePort();
    await new Promise<void>((done) => engine.listen(enginePort, '127.0.0.1', done));
    berth = await startBerth({
      config: `
gateway:
  rest:
    apiKeys: [{ name: ci, key: "${KEYS.ci}", role: operator }]
    waitMs: 300
    skillWaitMs: 300
`,
      env: { DOCKER_HOST: `tcp://127.0.0.1:${enginePort}` }
    });
  });
  afterAll(async () => {
    if (berth.proc.exitCode === null) await berth.stop();
    engine.closeAllConnections();
    engine.close();
  });

  /** Reads `path` until `done` holds for its JSON (5 s at most). */
  async function until(path: string, done: (json: Record<string, unknown>) => boolean) {
    const deadline = Date.now() + 5_000;
    let reply = await call('GET', path);
    while (!done(reply.json) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      reply = await call('GET', path);
    }
    return reply.json;
  }

  let runId = '';
  let turnId = '';

  it('answers /skills/trigger with 202 after skillWaitMs; the run reads as running', async () => {
    const started = Date.now();
    const reply = await call('POST', '/skills/trigger', {
      body: { skill_id: 'engine.containers' }
    });
    const waited = Date.now() - started;
    expect(reply.status).toBe(202);
    expect(reply.json).toEqual({ runId: expect.any(String) as string, status: 'running' });
    runId = reply.json.runId as string;
    expect(reply.headers.get('location')).toBe(`/api/v1/skills/runs/${runId}`);
    // Held for skillWaitMs (300 ms), not the 30 s default.
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(5_000);
    expect(held.length).toBe(1);

    const run = await call('GET', `/skills/runs/${runId}`);
    expect(run.status).toBe(200);
    expect(run.json).toMatchObject({
      runId,
      skillId: 'engine.containers',
      status: 'running',
      output: null,
      exitCode: null,
      finishedAt: null,
      trigger: 'rest',
      actor: 'ci'
    });
  });

  it('answers /chat/send with 202 after waitMs; the turn reads as running', async () => {
    const started = Date.now();
    const reply = await call('POST', '/chat/send', {
      body: { message: '/skill engine.containers {}' }
    });
    const waited = Date.now() - started;
    expect(reply.status).toBe(202);
    expect(reply.json).toEqual({
      messageId: expect.any(String) as string,
      sessionId: expect.any(String) as string,
      turnId: expect.any(String) as string,
      status: 'running',
      reply: null
    });
    turnId = reply.json.turnId as string;
    expect(reply.headers.get('location')).toBe(`/api/v1/turns/${turnId}`);
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(5_000);
    expect(held.length).toBe(2);

    const turn = await call('GET', `/turns/${turnId}`);
    expect(turn.status).toBe(200);
    expect(turn.json).toMatchObject({
      turnId,
      sessionId: reply.json.sessionId,
      state: 'running',
      source: 'rest',
      finishedAt: null,
      result: null,
      error: null
    });
  });

  it('finishes both once the engine answers; later reads show the outcome', async () => {
    release();
    expect(await until(`/skills/runs/${runId}`, (run) => run.status !== 'running')).toMatchObject({
      status: 'completed',
      output: [],
      exitCode: 0
    });
    expect(await until(`/turns/${turnId}`, (turn) => turn.state !== 'running')).toMatchObject({
      state: 'completed',
      result: 'Skill engine.containers returned: []'
    });
  });

  it('stops cleanly with a run still held by the engine', async () => {
    const reply = await call('POST', '/skills/trigger', {
      body: { skill_id: 'engine.containers' }
    });
    expect(reply.status).toBe(202);
    expect(held.length).toBe(1);
    const stopping = Date.now();
    // SIGTERM: exit 0, before the 8 s after which open connections would be cut.
    expect(await berth.stop()).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(5_000);
    // LOG_LEVEL is warn: nothing at error or fatal (pino levels 50, 60) was logged.
    expect(berth.output()).not.toMatch(/"level":(50|60)/);
  });
});

/** Splits a text/event-stream body into its events (comments skipped). */
function parseSse(text: string): { event: string; data: unknown }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() && !block.startsWith(':'))
    .map((block) => {
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      return { event, data: JSON.parse(data.join('\n')) as unknown };
    });
}
