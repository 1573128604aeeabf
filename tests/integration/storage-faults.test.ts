import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, hook, TOKEN } from '../fixtures/webhooks';
import { ADMIN, freePort, login, postForm, startBerth, type Berth } from './helpers/berth';
import { TURN_INPUT } from './helpers/turns';

/**
 * A bad day for storage, against a started Berth: another process holding the database's write
 * lock, and a full disk. Writes answer 503 with Retry-After at once on every interface, probes
 * and reads keep answering, nothing unstored is acknowledged, and work resumes by itself.
 */
const RPC_TOKEN = 'ops-token-0123456789abcdef';
/**
 * A refused write answers within this: Berth waits 50 ms for a lock; better-sqlite3's default
 * (5 s) would blow it. Loose enough for a loaded 2-core machine.
 */
const REFUSED_WITHIN_MS = 2000;
const REST_KEY = 'ci-operator-key-0123456789abcdef';
const CONFIG = `
webhooks:
  enabled: true
  token: "${TOKEN}"
  rateLimit: { maxRequests: 100000, windowMs: 60000 }
gateway:
  rpc:
    auth:
      type: bearer
      tokens: [{ name: ops, token: "${RPC_TOKEN}", permissions: ["*"] }]
  rest:
    apiKeys: [{ name: ci, key: "${REST_KEY}", role: operator }]
agents:
  - { name: main, provider: builtin, heartbeatMs: 1000 }
`;
const ENV = { BERTH_ADMIN_EMAIL: ADMIN.email, BERTH_ADMIN_PASSWORD: ADMIN.password };

type RpcAnswer = {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

async function rpc(berth: Berth, method: string, params: Record<string, unknown> = {}) {
  const res = await fetch(`${berth.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${RPC_TOKEN}` },
    body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 })
  });
  expect(res.status).toBe(200);
  return (await res.json()) as RpcAnswer;
}

const sendMessage = (berth: Berth, message: string, userId = 'me') =>
  rpc(berth, 'agent.sendMessage', { agentName: 'main', channel: 'cli', userId, message });

function chat(berth: Berth, message: string) {
  return fetch(`${berth.url}/api/v1/chat/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${REST_KEY}` },
    body: JSON.stringify({ message })
  });
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 8000) {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}

/** /healthz every 20 ms until stopped; resolves with every latency seen. */
function watchHealth(berth: Berth) {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const { value, ms } = await timed(() => fetch(`${berth.url}/healthz`));
      expect(value.status).toBe(200);
      latencies.push(ms);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return latencies;
  };
}

describe('a database locked by another process', () => {
  // An engine that answers /_ping and holds the rest, so skill-running turns stay in flight.
  const held: ServerResponse[] = [];
  const engine = createServer((req, res) => {
    if (req.url === '/_ping') res.writeHead(200, { 'Api-Version': '1.45' }).end('OK');
    else held.push(res);
  });
  const answerEngine = () => {
    for (const res of held.splice(0))
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  };
  let started: Berth | undefined;
  let locker: Database.Database | undefined;

  beforeAll(async () => {
    const enginePort = await freePort();
    await new Promise<void>((done) => engine.listen(enginePort, '127.0.0.1', done));
    started = await startBerth({
      config: CONFIG,
      env: { ...ENV, DOCKER_HOST: `tcp://127.0.0.1:${enginePort}` }
    });
  });
  afterAll(async () => {
    if (locker?.inTransaction) locker.exec('ROLLBACK');
    locker?.close();
    await started?.stop();
    engine.closeAllConnections();
    engine.close();
  });

  it('answers writes 503 at once, keeps probes and reads answering, and loses no queued work', async () => {
    const berth = started!;
    const cookie = await login(berth);
    // Turns in flight when the lock comes: some wait on the engine, and one more waits in the
    // queue behind them (the agent runs a bounded number at once).
    const turnIds: string[] = [];
    let queuedId: string | undefined;
    for (let i = 0; i < 16 && !queuedId; i++) {
      const sent = await sendMessage(berth, '/skill engine.containers {}', `u${i}`);
      const turnId = sent.result!.turnId as string;
      turnIds.push(turnId);
      const turn = await poll(
        async () => (await rpc(berth, 'turn.get', { turnId })).result!,
        () => held.length === turnIds.length,
        300
      );
      if (turn.state === 'queued') queuedId = turnId;
    }
    expect(queuedId).toBeDefined();
    const wake = await hook(berth.port, '/hooks/wake', {
      text: 'queued before the lock',
      mode: 'next-heartbeat'
    });
    expect(wake.status).toBe(200);

    locker = new Database(join(berth.dataDir, 'berth.db'));
    locker.exec('BEGIN EXCLUSIVE');
    const stopWatching = watchHealth(berth);
    const lockedAt = Date.now();

    const woken = await timed(() => hook(berth.port, '/hooks/wake', { text: 'during the lock' }));
    expect(woken.value.status).toBe(503);
    expect(woken.value.headers['retry-after']).toBe('1');
    expect(woken.value.json).toMatchObject({ status: 503, error: 'unavailable' });
    expect(woken.ms).toBeLessThan(REFUSED_WITHIN_MS);

    // Wakes arriving together share one commit: the refused commit answers each of them 503.
    const batch = await timed(() =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          hook(berth.port, '/hooks/wake', { text: `batch ${i}` })
        )
      )
    );
    expect(batch.value.map((r) => r.status)).toEqual(Array(20).fill(503));
    expect(batch.ms).toBeLessThan(REFUSED_WITHIN_MS);

    const agentHook = await timed(() =>
      hook(berth.port, '/hooks/agent', { message: 'during the lock' })
    );
    expect(agentHook.value.status).toBe(503);
    expect(agentHook.ms).toBeLessThan(REFUSED_WITHIN_MS);

    const rest = await timed(() => chat(berth, 'during the lock'));
    expect(rest.value.status).toBe(503);
    expect(rest.value.headers.get('retry-after')).toBe('1');
    expect(rest.value.headers.get('content-type')).toBe('application/problem+json');
    expect(await rest.value.json()).toMatchObject({
      status: 503,
      detail: 'The database is locked by another process; try again shortly'
    });
    expect(rest.ms).toBeLessThan(REFUSED_WITHIN_MS);

    const sent = await timed(() => sendMessage(berth, 'during the lock'));
    expect(sent.value.error).toEqual({
      code: -32003,
      message: 'Service unavailable',
      data: {
        detail: 'The database is locked by another process; try again shortly',
        retryAfterMs: 1000
      }
    });
    expect(sent.ms).toBeLessThan(REFUSED_WITHIN_MS);

    // The console: a tRPC mutation and a form action.
    const created = await fetch(`${berth.url}/api/trpc/credentials.apiKeys.create`, {
      method: 'POST',
      headers: { origin: berth.url, cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'during-lock', role: 'viewer' })
    });
    expect(created.status).toBe(503);
    expect(created.headers.get('retry-after')).toBe('1');
    expect(((await created.json()) as { error: unknown }).error).toMatchObject({
      message: 'The database is locked by another process; try again shortly',
      data: { code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 }
    });
    const signIn = await postForm(berth, '/login', ADMIN);
    expect(signIn.status).toBe(503);
    expect(signIn.headers.get('retry-after')).toBe('1');
    expect(await signIn.text()).toContain('locked by another process');

    // Reads go on (WAL readers are not blocked by a writer's lock).
    expect((await rpc(berth, 'agent.list')).result!.agents).toHaveLength(1);
    expect((await rpc(berth, 'turn.get', { turnId: queuedId! })).result!.state).toBe('queued');

    const ready = await fetch(`${berth.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: { database: unknown } }).checks.database).toEqual({
      status: 'error',
      detail: 'database locked by another process: writes failing'
    });

    // The skills finish while the lock holds: their results wait to be stored.
    answerEngine();
    await new Promise((r) => setTimeout(r, Math.max(0, 2500 - (Date.now() - lockedAt))));
    locker.exec('COMMIT');
    const latencies = await stopWatching();
    const sorted = latencies.toSorted((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    console.log(
      `/healthz under the lock: ${sorted.length} probes, p50 ${at(0.5).toFixed(1)} ms, ` +
        `p99 ${at(0.99).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`
    );
    expect(latencies.length).toBeGreaterThan(20);
    // Probes answer while the lock holds: a loop blocked in a busy wait would stall them for
    // seconds. One slow probe on a loaded machine is not that.
    expect(at(0.9)).toBeLessThan(200);
    expect(at(1)).toBeLessThan(1000);

    const after = await hook(berth.port, '/hooks/wake', { text: 'after the lock' });
    expect(after.status).toBe(200);
    expect((await sendMessage(berth, 'after the lock')).result).toMatchObject({
      status: 'queued'
    });
    for (const turnId of turnIds) {
      answerEngine();
      const turn = await poll(
        async () => (await rpc(berth, 'turn.get', { turnId })).result!,
        (t) => t.state === 'completed' || t.state === 'failed'
      );
      expect(turn).toMatchObject({
        state: 'completed',
        result: 'Skill engine.containers returned: []'
      });
    }
    const event = await poll(
      async () => (await rpc(berth, 'event.get', { eventId: wake.json.eventId })).result!,
      (e) => e.state === 'done'
    );
    expect(event.state).toBe('done');
    expect(berth.proc.exitCode).toBeNull();
    // The operator hears of it once, not once per refused request.
    const warnings = berth.output().match(/storage refused a write: database locked/g) ?? [];
    expect(warnings).toHaveLength(1);
  });
});

describe('a full disk', () => {
  const mountPoint = mkdtempSync(join(tmpdir(), 'berth-full-'));
  let mounted = false;
  let berth: Berth | undefined;

  beforeAll(async () => {
    if (process.getuid?.() !== 0)
      throw new Error('the full-disk test mounts a tmpfs: run the integration tests as root');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint]);
    mounted = true;
    berth = await startBerth({ config: CONFIG, dataDir: mountPoint, env: ENV });
  });
  afterAll(async () => {
    await berth?.stop();
    if (mounted) execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  /** Writes a file until the disk refuses another byte. */
  function fillDisk(file: string) {
    const fd = openSync(file, 'w');
    try {
      for (const size of [64 * 1024, 512, 1])
        for (;;) {
          try {
            writeSync(fd, Buffer.alloc(size));
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
            throw err;
          }
        }
    } finally {
      closeSync(fd);
    }
  }

  it('answers writes 503, reports the database failing, and recovers once space returns', async () => {
    const b = berth!;
    expect((await hook(b.port, '/hooks/wake', { text: 'before' })).status).toBe(200);
    const filler = join(mountPoint, 'filler');
    fillDisk(filler);

    const woken = await hook(b.port, '/hooks/wake', { text: 'while-full' }, AUTH);
    expect(woken.status).toBe(503);
    expect(woken.headers['retry-after']).toBe('30');
    expect(woken.json).toMatchObject({ status: 503, error: 'unavailable' });
    const batch = await Promise.all(
      Array.from({ length: 10 }, () => hook(b.port, '/hooks/wake', { text: 'while-full' }))
    );
    expect(batch.map((r) => r.status)).toEqual(Array(10).fill(503));
    const rest = await chat(b, 'while-full');
    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).toBe('30');
    expect((await sendMessage(b, 'while-full')).error).toMatchObject({
      code: -32003,
      data: { retryAfterMs: 30_000 }
    });

    const ready = await fetch(`${b.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: 'unavailable',
      checks: { database: { status: 'error', detail: 'disk full: writes failing' } }
    });
    expect((await fetch(`${b.url}/healthz`)).status).toBe(200);
    expect((await rpc(b, 'agent.list')).result!.agents).toHaveLength(1);

    rmSync(filler);
    const recovered = await poll(
      () => fetch(`${b.url}/readyz`),
      (res) => res.status === 200,
      5000
    );
    expect(recovered.status).toBe(200);
    const after = await hook(b.port, '/hooks/wake', { text: 'after' });
    expect(after.status).toBe(200);
    expect(b.output()).toContain('storage refused a write: disk full: writes failing');

    // Nothing refused was stored; what was acknowledged was.
    const db = new Database(join(mountPoint, 'berth.db'), { readonly: true });
    try {
      const texts = (db.prepare('select text from system_events').all() as { text: string }[]).map(
        (r) => r.text
      );
      expect(texts).toContain('after');
      expect(texts).not.toContain('while-full');
      const turns = db
        .prepare(`select count(*) n from turns where ${TURN_INPUT} = 'while-full'`)
        .get() as {
        n: number;
      };
      expect(turns.n).toBe(0);
    } finally {
      db.close();
    }
  });
});
