import type Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH,
  githubPush,
  hook,
  JSON_TYPE,
  openDb,
  rssMiB,
  send,
  TOKEN,
  until,
  type Reply
} from '../fixtures/webhooks';
import { startBerth, type Berth } from './helpers/berth';
import { TURN_INPUT } from './helpers/turns';

// These suites send many wrong tokens on purpose: the per-address failed-authentication
// throttle, which would soon refuse the rest, is set out of the way (auth-throttle.test.ts).
const config = (extra = '', rate = '{ maxRequests: 100000, windowMs: 60000 }') => `
gateway:
  authThrottle: { maxFailures: 100000, windowMs: 60000 }
webhooks:
  enabled: true
  token: "${TOKEN}"
  rateLimit: ${rate}
  allowedSessionPrefixes: ["webhook:", "ci:"]
  allowedModels: [gpt-test]
  mappings:
    to-main:
      message: "Mapped: {body.text}"
      session: main
    github-push:
      match: { "headers.x-github-event": push, "body.ref": refs/heads/main }
      message: "Push to {body.repository.full_name} by {body.pusher.name}: {body.head_commit.message}"
      session: webhook:github
      delivery: announce
    probe:
      message: "A[{body.__proto__.x}]B[{body.constructor}]C[{body.a.b}]D[{headers.x-name}]E[{headers.authorization}]F[{body.items[1].id}]G[{body.evil}]"
      model: probe-model
${extra}
agents:
  - { name: main, provider: builtin, heartbeatMs: 30000 }
  - { name: helper, provider: builtin, heartbeatMs: 30000 }
`;

type Row = Record<string, unknown>;
/** A matcher typed as what it stands for, so object literals stay type-safe. */
const aString = expect.any(String) as unknown as string;

function expectError(reply: Reply, status: number) {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  expect(reply.json).toEqual({ status, error: aString, message: aString });
  expect(reply.text).not.toMatch(/\bat .*\.(ts|js):\d+/);
}

describe('webhooks', () => {
  let berth: Berth;
  let db: Database.Database;
  const turn = (id: unknown) =>
    db.prepare(`select *, ${TURN_INPUT} input from turns where id = ?`).get(id) as Row;
  const eventRows = (id: unknown) =>
    db.prepare('select count(*) n from system_events where id = ?').get(id) as { n: number };
  const completed = (id: unknown) => until(() => turn(id)?.state === 'completed' && turn(id));

  beforeAll(async () => {
    berth = await startBerth({ config: config() });
    db = openDb(berth.dataDir);
  });
  afterAll(async () => {
    db?.close();
    await berth?.stop();
  });

  it('POST /wake queues a committed system event that the heartbeat processes', async () => {
    const reply = await hook(berth.port, '/hooks/wake', {
      text: 'Deploy finished',
      metadata: { source: 'ci', event: 'deploy' },
      mode: 'now'
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      status: 200,
      message: aString,
      eventId: aString
    });
    const row = db
      .prepare('select * from system_events where id = ?')
      .get(reply.json.eventId) as Row;
    expect(row).toMatchObject({ agent_name: 'main', text: 'Deploy finished', source: 'webhook' });
    expect(JSON.parse(row.metadata as string)).toEqual({ source: 'ci', event: 'deploy' });
    const done = await until(() => {
      const r = db
        .prepare('select * from system_event_states where id = ?')
        .get(reply.json.eventId) as Row;
      return r.state === 'done' && r;
    });
    expect(turn(done.turn_id).state).toBe('completed');
  });

  it('POST /wake honours agent and next-heartbeat mode', async () => {
    const reply = await hook(berth.port, '/hooks/wake', {
      text: 'later',
      mode: 'next-heartbeat',
      agent: 'helper'
    });
    expect(reply.status).toBe(200);
    const row = db
      .prepare('select agent_name, state from system_event_states where id = ?')
      .get(reply.json.eventId) as Row;
    expect(row).toEqual({ agent_name: 'helper', state: 'queued' });
  });

  it('answers 400 naming the field for bad wake and agent bodies', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['/hooks/wake', {}, /text is required/],
      ['/hooks/wake', { text: 5 }, /text must be a string/],
      ['/hooks/wake', { text: 'x', metadata: 'no' }, /metadata must be an object/],
      ['/hooks/wake', { text: 'x', mode: 'soon' }, /mode/],
      ['/hooks/wake', { text: 'x', agent: 'ghost' }, /agent ghost/],
      ['/hooks/wake', [1, 2], /JSON object/],
      ['/hooks/wake', 'null', /JSON object/],
      ['/hooks/wake', '{"text": "x",', /JSON/],
      ['/hooks/wake', `${'['.repeat(40)}${']'.repeat(40)}`, /nested/],
      ['/hooks/agent', {}, /message is required/],
      ['/hooks/agent', { message: 'x', context: [1] }, /context must be an object/],
      ['/hooks/agent', { message: 'x', session: 3 }, /session must be a string/]
    ];
    for (const [path, body, message] of cases) {
      const reply = await hook(berth.port, path, body);
      expectError(reply, 400);
      expect(reply.json.message).toMatch(message);
    }
  });

  it('holds webhook fields to the limits of the other interfaces, agent names included', async () => {
    const turns = () => (db.prepare('select count(*) n from turns').get() as { n: number }).n;
    const before = turns();
    const cases: [string, unknown, RegExp][] = [
      ['/hooks/agent', { message: 'x', agent: 'ghost' }, /^agent ghost does not exist$/],
      ['/hooks/agent', { message: 'x', agent: '../main' }, /^agent must be letters, digits/],
      ['/hooks/agent', { message: 'x', agent: 'a'.repeat(64) }, /^agent must be letters/],
      ['/hooks/agent', { message: 'x', agent: 7 }, /^agent must be a string$/],
      ['/hooks/wake', { text: 'x', agent: 'main/../x' }, /^agent must be letters/],
      ['/hooks/agent', { message: 'x'.repeat(100_001) }, /^message must be at most 100000/],
      ['/hooks/wake', { text: 'x'.repeat(100_001) }, /^text must be at most 100000/],
      ['/hooks/agent', { message: '' }, /^message must not be empty$/],
      ['/hooks/agent', { message: 'x', channel: 'a b' }, /^channel must be letters, digits/],
      ['/hooks/agent', { message: 'x', session: `webhook:${'s'.repeat(200)}` }, /^session/]
    ];
    for (const [path, body, message] of cases) {
      const reply = await hook(berth.port, path, body);
      expectError(reply, 400);
      expect(reply.json.message, JSON.stringify(body).slice(0, 80)).toMatch(message);
    }
    expect(turns()).toBe(before);

    // At the limits themselves, the same bodies are taken.
    const longest = await hook(berth.port, '/hooks/agent', {
      message: 'x'.repeat(100_000),
      agent: 'helper',
      channel: 'c'.repeat(64)
    });
    expect(longest.status).toBe(200);
    expect(turn(longest.json.turnId)).toMatchObject({
      agent_name: 'helper',
      channel: 'c'.repeat(64)
    });
  });

  it('POST /agent starts an isolated turn with model, channel, session and context', async () => {
    const reply = await hook(berth.port, '/hooks/agent', {
      message: 'Summarise the build',
      model: 'gpt-test',
      channel: 'ci',
      session: 'webhook:ci',
      context: { build: 42 }
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      status: 200,
      message: aString,
      sessionId: aString,
      turnId: aString
    });
    const row = await completed(reply.json.turnId);
    expect(row).toMatchObject({
      session_id: reply.json.sessionId,
      agent_name: 'main',
      model: 'gpt-test',
      channel: 'ci',
      input: 'Summarise the build',
      source: 'webhook'
    });
    expect(JSON.parse(row.context as string)).toEqual({ build: 42 });
    const session = db
      .prepare('select key from chat_sessions where id = ?')
      .get(reply.json.sessionId) as Row;
    expect(session.key).toBe('webhook:ci');

    const a = await hook(berth.port, '/hooks/agent', { message: 'one', agent: 'helper' });
    const b = await hook(berth.port, '/hooks/agent', { message: 'two', agent: 'helper' });
    expect(a.json.sessionId).not.toBe(b.json.sessionId);
    expect((await completed(a.json.turnId)).agent_name).toBe('helper');
  });

  it('refuses /agent sessions outside allowedSessionPrefixes and models outside allowedModels', async () => {
    const turns = () => (db.prepare('select count(*) n from turns').get() as { n: number }).n;
    const before = turns();
    for (const session of ['rest:ci', 'main', 'rpc:cli:me', 'webhookx', 'Webhook:x']) {
      const reply = await hook(berth.port, '/hooks/agent', { message: 'hijack', session });
      expectError(reply, 400);
      expect(reply.json.message).toBe(
        `session ${session} is not allowed: it must start with webhook: or ci: (webhooks.allowedSessionPrefixes)`
      );
    }
    const model = await hook(berth.port, '/hooks/agent', { message: 'x', model: 'gpt-big' });
    expectError(model, 400);
    expect(model.json.message).toBe(
      'model gpt-big is not allowed: it must be one of gpt-test (webhooks.allowedModels)'
    );
    expect(turns()).toBe(before);
    const allowed = await hook(berth.port, '/hooks/agent', {
      message: 'ok',
      session: 'ci:nightly'
    });
    expect(allowed.status).toBe(200);
    const key = db
      .prepare('select key from chat_sessions where id = ?')
      .get(allowed.json.sessionId) as Row;
    expect(key.key).toBe('ci:nightly');
  });

  it("a mapping's own session is the operator's choice: it may name main", async () => {
    const reply = await hook(berth.port, '/hooks/to-main', { text: 'from a mapping' });
    expect(reply.status).toBe(200);
    const row = await completed(reply.json.turnId);
    expect(row.input).toBe('Mapped: from a mapping');
    const session = db
      .prepare('select key from chat_sessions where id = ?')
      .get(reply.json.sessionId) as Row;
    expect(session.key).toBe('main');
  });

  it('a matching mapping starts an announced turn whose result lands in main', async () => {
    const reply = await hook(berth.port, '/hooks/github-push', githubPush, {
      ...AUTH,
      'x-github-event': 'push'
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      status: 200,
      message: aString,
      mapping: 'github-push',
      sessionId: aString,
      turnId: aString
    });
    const row = await completed(reply.json.turnId);
    expect(row).toMatchObject({ delivery: 'announce', source: 'webhook:github-push' });
    expect(row.input).toBe('Push to octo-org/berth by octocat: Fix the heartbeat interval');
    const session = db
      .prepare('select key from chat_sessions where id = ?')
      .get(reply.json.sessionId) as Row;
    expect(session.key).toBe('webhook:github');
    const announced = db
      .prepare(
        `select m.channel from messages m join chat_sessions s on s.id = m.session_id
         where s.key = 'main' and s.agent_name = 'main' and m.turn_id = ?`
      )
      .get(reply.json.turnId) as Row;
    expect(announced.channel).toBe('announce');
  });

  it('a mapping whose conditions fail is ignored with 200; an unknown one is 404', async () => {
    const before = (db.prepare('select count(*) n from turns').get() as { n: number }).n;
    const wrongEvent = await hook(berth.port, '/hooks/github-push', githubPush, {
      ...AUTH,
      'x-github-event': 'issues'
    });
    const wrongRef = await hook(
      berth.port,
      '/hooks/github-push',
      { ...(JSON.parse(githubPush) as object), ref: 'refs/heads/dev' },
      { ...AUTH, 'x-github-event': 'push' }
    );
    for (const reply of [wrongEvent, wrongRef])
      expect(reply.json).toEqual({ status: 200, message: 'ignored', matched: false });
    expect((db.prepare('select count(*) n from turns').get() as { n: number }).n).toBe(before);
    expectError(await hook(berth.port, '/hooks/nope', {}), 404);
    expectError(await hook(berth.port, '/hooks', {}), 404);
    expectError(await hook(berth.port, '/hooks/nope', {}, {}), 401);
  });

  it('templates never reach prototypes, credentials or a second expansion', async () => {
    const body =
      '{"__proto__":{"x":"polluted"},"a":{"b":"ok"},"items":[{"id":1},{"id":2}],"evil":"{body.a.b}"}';
    const reply = await hook(berth.port, '/hooks/probe', body, { ...AUTH, 'x-name': 'Octo' });
    expect(reply.status).toBe(200);
    const row = turn(reply.json.turnId);
    expect(row.input).toBe('A[]B[]C[ok]D[Octo]E[]F[2]G[{body.a.b}]');
    expect(row.model).toBe('probe-model');
    const constructorOnly = await hook(berth.port, '/hooks/probe', { constructor: 'x' });
    expect(turn(constructorOnly.json.turnId).input).toBe('A[]B[]C[]D[]E[]F[]G[]');
  });

  it('authenticates by Bearer or x-gateway-token; Bearer wins when both are sent', async () => {
    const wake = (headers: Record<string, string>) =>
      hook(berth.port, '/hooks/wake', { text: 'auth' }, headers);
    expect((await wake({ 'x-gateway-token': TOKEN })).status).toBe(200);
    expect((await wake({ ...AUTH, 'x-gateway-token': 'wrong-token-0000000000' })).status).toBe(200);
    const bearerWrong = await wake({
      authorization: 'Bearer wrong-token-0000000000',
      'x-gateway-token': TOKEN
    });
    expectError(bearerWrong, 401);
    expectError(await wake({}), 401);
    expectError(await wake({ authorization: `Basic ${TOKEN}` }), 401);
    expectError(await wake({ authorization: `Bearer ${TOKEN}x` }), 401);
    expect((await wake({})).headers['www-authenticate']).toBe('Bearer');
  });

  it('refuses a token in the query string with 400', async () => {
    for (const query of [
      `token=${TOKEN}`,
      'access_token=abc',
      `x=${TOKEN}`,
      'api_key=1',
      'token='
    ]) {
      const reply = await hook(berth.port, `/hooks/wake?${query}`, { text: 'q' });
      expectError(reply, 400);
      expect(reply.json.message).toMatch(/header/);
    }
    expect((await hook(berth.port, '/hooks/wake?source=ci', { text: 'q' })).status).toBe(200);
  });

  it('answers 405, 415 and 413 in the error shape', async () => {
    const get = await send(berth.port, { method: 'GET', path: '/hooks/wake', headers: AUTH });
    expectError(get, 405);
    expect(get.headers.allow).toBe('POST');
    expectError(await send(berth.port, { method: 'PUT', path: '/hooks/x', headers: AUTH }), 405);
    const text = await send(berth.port, {
      path: '/hooks/wake',
      headers: { ...AUTH, 'content-type': 'text/plain' },
      body: '{"text":"x"}'
    });
    expectError(text, 415);
    const none = await send(berth.port, { path: '/hooks/wake', headers: AUTH, body: '{}' });
    expectError(none, 415);
    const big = JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 10) });
    expectError(await hook(berth.port, '/hooks/wake', big), 413);
  });

  it('answers 413 to a chunked body over the limit before reading it all', async () => {
    const result = await new Promise<{ status: number; body: string; sent: number }>((done) => {
      let sent = 0;
      let answered = false;
      const req = request(
        {
          host: '127.0.0.1',
          port: berth.port,
          method: 'POST',
          path: '/hooks/wake',
          headers: { ...AUTH, ...JSON_TYPE, 'transfer-encoding': 'chunked' }
        },
        (res) => {
          answered = true;
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => done({ status: res.statusCode ?? 0, body, sent }));
          res.on('error', () => done({ status: res.statusCode ?? 0, body, sent }));
        }
      );
      req.on('error', () => {
        if (!answered) done({ status: 0, body: '', sent });
      });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      req.write('{"text":"');
      const pump = () => {
        if (answered || sent > 8 * 1024 * 1024) return req.end();
        sent += chunk.length;
        req.write(chunk, () => setTimeout(pump, 2));
      };
      pump();
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ status: 413, error: 'payload_too_large' });
    expect(result.sent).toBeLessThan(4 * 1024 * 1024);
    expect((await hook(berth.port, '/hooks/wake', { text: 'still up' })).status).toBe(200);
  });

  it('an Idempotency-Key or webhook-id gives the same answer and one event', async () => {
    const key = { ...AUTH, 'idempotency-key': `key-${Date.now()}` };
    const first = await hook(berth.port, '/hooks/wake', { text: 'once' }, key);
    const second = await hook(berth.port, '/hooks/wake', { text: 'once' }, key);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(eventRows(first.json.eventId).n).toBe(1);
    const sameText = db
      .prepare("select count(*) n from system_events where text = 'once'")
      .get() as { n: number };
    expect(sameText.n).toBe(1);

    // Keys are scoped by route: the same key on /agent is a different request.
    const agent = await hook(berth.port, '/hooks/agent', { message: 'once' }, key);
    expect(agent.json.turnId).toEqual(aString);

    const id = { ...AUTH, 'webhook-id': `msg_${Date.now()}` };
    const t1 = await hook(berth.port, '/hooks/agent', { message: 'wh' }, id);
    const t2 = await hook(berth.port, '/hooks/agent', { message: 'wh' }, id);
    expect(t2.json).toEqual(t1.json);
    const turnCount = db
      .prepare(`select count(*) n from turns where ${TURN_INPUT} = 'wh'`)
      .get() as {
      n: number;
    };
    expect(turnCount.n).toBe(1);
    expectError(
      await hook(
        berth.port,
        '/hooks/wake',
        { text: 'k' },
        { ...AUTH, 'idempotency-key': 'x'.repeat(300) }
      ),
      400
    );
  });

  it('20 concurrent requests with the same key make one event and one answer', async () => {
    const headers = { ...AUTH, 'idempotency-key': `burst-${Date.now()}` };
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => hook(berth.port, '/hooks/wake', { text: 'burst' }, headers))
    );
    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(replies.map((r) => r.text)).size).toBe(1);
    const n = db.prepare("select count(*) n from system_events where text = 'burst'").get() as {
      n: number;
    };
    expect(n.n).toBe(1);

    const mapped = { ...AUTH, 'x-github-event': 'push', 'idempotency-key': `gh-${Date.now()}` };
    const pushes = await Promise.all(
      Array.from({ length: 20 }, () => hook(berth.port, '/hooks/github-push', githubPush, mapped))
    );
    expect(new Set(pushes.map((r) => r.json.turnId)).size).toBe(1);
  });

  it('survives a seeded fuzz run: never a 500, still alive, memory bounded', async () => {
    let seed = 0x5eed;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const pick = <T>(items: T[]): T => items[Math.floor(rand() * items.length)]!;
    const junk = (n: number) =>
      Array.from({ length: n }, () => String.fromCharCode(Math.floor(rand() * 0x3000))).join('');
    const bases = [
      { text: 'fuzz', metadata: { a: 1 } },
      { message: 'fuzz', context: { a: [1, 2] }, session: 'webhook:fuzz' },
      JSON.parse(githubPush) as object
    ];
    const mutate = (): string | Buffer => {
      const base = JSON.stringify(pick(bases));
      switch (Math.floor(rand() * 8)) {
        case 0:
          return base.slice(0, Math.floor(rand() * base.length));
        case 1: {
          const i = Math.floor(rand() * base.length);
          return base.slice(0, i) + junk(3) + base.slice(i);
        }
        case 2:
          return Buffer.from(Array.from({ length: 64 }, () => Math.floor(rand() * 256)));
        case 3:
          return JSON.stringify({ text: junk(50), mode: pick(['now', 'x', 1, null]) });
        case 4:
          return JSON.stringify({
            message: pick([1, null, [], {}, '', 'ok']),
            context: pick([1, 'x', [], {}])
          });
        case 5:
          return '{"a":'.repeat(Math.floor(rand() * 60)) + '1' + '}'.repeat(30);
        case 6:
          return JSON.stringify({
            __proto__: { text: 'p' },
            constructor: { prototype: 1 },
            text: junk(5)
          });
        default:
          return base;
      }
    };
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const rssBefore = rssMiB(berth.proc.pid!);
    const statuses = new Map<number, number>();
    for (let round = 0; round < 40; round++) {
      const replies = await Promise.all(
        Array.from({ length: 8 }, () => {
          const headers: Record<string, string> = {
            'content-type': pick([
              'application/json',
              'application/json; charset=utf-8',
              'text/plain',
              'application/cloudevents+json',
              ''
            ]),
            ...pick<Record<string, string>>([
              AUTH,
              { 'x-gateway-token': TOKEN },
              { authorization: junk(10).replace(/[^\x21-\x7e]/g, 'x') },
              {}
            ]),
            ...(rand() < 0.3 ? { 'x-github-event': pick(['push', 'issues']) } : {}),
            ...(rand() < 0.2 ? { 'idempotency-key': `fz-${Math.floor(rand() * 5)}` } : {})
          };
          if (!headers['content-type']) delete headers['content-type'];
          const path = pick([
            '/hooks/wake',
            '/hooks/agent',
            '/hooks/github-push',
            '/hooks/probe',
            '/hooks/zz',
            `/hooks/wake?${pick(['a=1', 'token=1', 'x=%zz'])}`
          ]);
          return send(berth.port, {
            method: pick(['POST', 'POST', 'POST', 'GET', 'DELETE']),
            path,
            headers,
            body: mutate(),
            agent
          });
        })
      );
      for (const r of replies) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    agent.destroy();
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(0);
    expect((await fetch(`${berth.url}/healthz`)).status).toBe(200);
    expect(rssMiB(berth.proc.pid!) - rssBefore).toBeLessThan(50);
  });
});

describe('webhook rate limit', () => {
  let berth: Berth;
  beforeAll(async () => {
    berth = await startBerth({ config: config('', '{ maxRequests: 100, windowMs: 60000 }') });
  });
  afterAll(() => berth?.stop());

  it('lets exactly maxRequests of 1,000 concurrent requests through, then 429 with Retry-After', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 256 });
    const replies = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        hook(berth.port, '/hooks/wake', { text: `rl-${i}` }, AUTH, agent)
      )
    );
    agent.destroy();
    const passed = replies.filter((r) => r.status !== 429);
    expect(passed).toHaveLength(100);
    expect(new Set(passed.map((r) => r.status))).toEqual(new Set([200]));
    const limited = replies.find((r) => r.status === 429)!;
    expectError(limited, 429);
    const retry = Number(limited.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    const db = openDb(berth.dataDir);
    const n = db.prepare("select count(*) n from system_events where text like 'rl-%'").get() as {
      n: number;
    };
    db.close();
    expect(n.n).toBe(100);
  });

  it('counts failed authentications too, apart from the valid token (the webhook limiter alone)', async () => {
    const bad = { authorization: 'Bearer not-the-token-00000000' };
    const replies = await Promise.all(
      Array.from({ length: 120 }, () => hook(berth.port, '/hooks/wake', { text: 'x' }, bad))
    );
    expect(replies.filter((r) => r.status === 401)).toHaveLength(100);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(20);
    const missing = await hook(berth.port, '/hooks/wake', { text: 'x' }, {});
    expectError(missing, 429);
  });
});

describe('webhook configuration', () => {
  it('answers 404 on every webhook path when webhooks are disabled', async () => {
    const berth = await startBerth({
      config: `webhooks:\n  enabled: false\n  token: "${TOKEN}"\n`
    });
    try {
      for (const path of ['/hooks/wake', '/hooks/agent', '/hooks/x'])
        expectError(await hook(berth.port, path, { text: 'x', message: 'x' }), 404);
      expectError(await send(berth.port, { method: 'GET', path: '/hooks/wake' }), 404);
    } finally {
      await berth.stop();
    }
  });

  it('by default /agent may name only webhook: sessions and no model', async () => {
    const berth = await startBerth({
      config: `webhooks:\n  enabled: true\n  token: "${TOKEN}"\n`
    });
    try {
      const model = await hook(berth.port, '/hooks/agent', { message: 'x', model: 'gpt-4o' });
      expectError(model, 400);
      expect(model.json.message).toBe(
        'model: choosing the model is not allowed (webhooks.allowedModels is empty)'
      );
      const main = await hook(berth.port, '/hooks/agent', { message: 'x', session: 'main' });
      expectError(main, 400);
      expect(main.json.message).toBe(
        'session main is not allowed: it must start with webhook: (webhooks.allowedSessionPrefixes)'
      );
      const own = await hook(berth.port, '/hooks/agent', { message: 'x', session: 'webhook:ci' });
      expect(own.status).toBe(200);
    } finally {
      await berth.stop();
    }
  });

  it('a reload bringing a mapping condition on body.__proto__ is refused, naming its key path', async () => {
    const ops = 'ops-token-0123456789abcdef';
    const good = `gateway:\n  rpc:\n    auth:\n      tokens:\n        - { name: ops, token: "${ops}" }\nwebhooks:\n  enabled: true\n  token: "${TOKEN}"\n  mappings:\n    ok: { message: hi }\n`;
    const berth = await startBerth({ config: good });
    try {
      writeFileSync(
        join(berth.dataDir, 'berth.yaml'),
        `${good}    evil:\n      match: { "body.__proto__.x": 1 }\n      message: hi\n`
      );
      const res = await fetch(`${berth.url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ops}` },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'system.reload', id: 1 })
      });
      const answer = (await res.json()) as { error: { code: number; data: { detail: string } } };
      expect(answer.error.code).toBe(-32603);
      expect(answer.error.data.detail).toContain(
        'webhooks.mappings.evil.match.body.__proto__.x: must not name __proto__, prototype or constructor'
      );
      // The old configuration stays: no such mapping.
      expectError(await hook(berth.port, '/hooks/evil', { x: 1 }), 404);
    } finally {
      await berth.stop();
    }
  });

  it('follows webhooks.path, and with no token configured answers 401 to all', async () => {
    const berth = await startBerth({ config: 'webhooks:\n  enabled: true\n  path: /in/bound\n' });
    try {
      expectError(await hook(berth.port, '/in/bound/wake', { text: 'x' }), 401);
      expectError(await hook(berth.port, '/in/bound/wake', { text: 'x' }, {}), 401);
      const old = await hook(berth.port, '/hooks/wake', { text: 'x' });
      expect(old.status).toBe(404);
    } finally {
      await berth.stop();
    }
  });
});
