import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, hook, openDb, TOKEN } from '../fixtures/webhooks';
import { startBerth } from './helpers/berth';
import { berthConfig, OPS, rpcToken } from './helpers/config';
import { startFakeOpenAi, textAnswer, type FakeOpenAi } from './helpers/fake-openai';
import { callRpc } from './helpers/rpc';

/**
 * What a restart does with work a SIGKILL cut short: a running turn is resumed (queued again
 * and run from the start, at most three starts), and system events a heartbeat turn took
 * follow that turn even when the crash came between the turn's end and theirs.
 */
describe('restart after SIGKILL', () => {
  let fake: FakeOpenAi;
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-restart-'));
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(async () => {
    await fake?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('resumes a turn that was running on a slow model when the process was killed', async () => {
    const config = berthConfig({
      rpcTokens: [rpcToken('ops', OPS)],
      agents: [{ name: 'llm', provider: 'slow', heartbeatMs: 86_400_000 }],
      providers: {
        slow: { type: 'openai', baseUrl: fake.url, model: 'fake-small', timeoutMs: 30_000 }
      }
    });
    const dir = dataDir();
    // The first answer trickles far slower than the test waits: the turn is mid-stream.
    fake.script({ kind: 'stream', chunks: slowChunks(), delayMs: 10_000 });
    const asked = fake.requests.length;
    const berth = await startBerth({ config, dataDir: dir });
    const { result } = await callRpc<{ turnId: string }>(berth, OPS, 'agent.sendMessage', {
      agentName: 'llm',
      userId: 'u1',
      message: 'a question for a slow model'
    });
    const turnId = result!.turnId;
    await eventually(async () => (await state(berth.url, turnId)) === 'running');
    // Killed mid-stream: once the model has the question (else the restart would take the slow
    // answer scripted for this first call).
    await eventually(() => fake.requests.length > asked);
    berth.proc.kill('SIGKILL');
    await berth.exited;
    const db = openDb(dir);
    try {
      expect(db.prepare('select state, attempts from turns where id = ?').get(turnId)).toEqual({
        state: 'running',
        attempts: 1
      });
    } finally {
      db.close();
    }

    fake.script(textAnswer(['resumed', ' answer']));
    const again = await startBerth({ config, dataDir: dir });
    try {
      const done = await eventually(async () => {
        const { result: t } = await callRpc<{ state: string; result: string | null }>(
          again,
          OPS,
          'turn.get',
          { turnId }
        );
        return t && t.state !== 'running' && t.state !== 'queued' ? t : null;
      }, 10_000);
      expect(done.state).toBe('completed');
      expect(done.result).toBe('resumed answer');
      const db2 = openDb(dir);
      try {
        expect(
          db2.prepare('select attempts from turns where id = ?').get(turnId) as { attempts: number }
        ).toEqual({ attempts: 2 });
        // The question is asked again, once: the session holds one question and one reply.
        expect(
          db2
            .prepare(`select role, content from messages where turn_id = ? order by seq`)
            .all(turnId)
        ).toEqual([
          { role: 'user', content: 'a question for a slow model' },
          { role: 'assistant', content: 'resumed answer' }
        ]);
      } finally {
        db2.close();
      }
    } finally {
      await again.stop();
    }
  }, 40_000);

  it('settles events left processing: a completed turn’s are done, a failed or missing turn’s are queued again', async () => {
    const config = berthConfig({
      rpcTokens: [rpcToken('ops', OPS)],
      agents: [{ name: 'main', provider: 'builtin', heartbeatMs: 86_400_000 }]
    });
    const dir = dataDir();
    const first = await startBerth({ config, dataDir: dir });
    await first.stop();
    // The state a crash leaves between a heartbeat turn's commit and its events' update.
    const now = Date.now();
    const db = new Database(join(dir, 'berth.db'));
    try {
      const turn = db.prepare(
        `insert into turns (id, session_id, agent_name, state, source, input, queued_at, finished_at)
         values (?, 's', 'main', ?, 'heartbeat', 'System events', ?, ?)`
      );
      turn.run('t-completed', 'completed', now, now);
      turn.run('t-failed', 'failed', now, now);
      // Each event in the slice its turn took.
      const event = db.prepare(
        `insert into system_events (id, agent_name, state, text, source, created_at)
         values (?, 'main', 'queued', ?, 'webhook', ?)`
      );
      const slice = db.prepare(
        `insert into event_slices (agent_name, first_rowid, last_rowid, count, state, turn_id)
         select 'main', rowid, rowid, 1, 'processing', ? from system_events where id = ?`
      );
      for (const [id, text, turnId] of [
        ['e-completed', 'of a completed turn', 't-completed'],
        ['e-failed', 'of a failed turn', 't-failed'],
        ['e-orphan', 'of a turn that is gone', 't-gone']
      ] as const) {
        event.run(id, text, now);
        slice.run(turnId, id);
      }
    } finally {
      db.close();
    }

    const again = await startBerth({ config, dataDir: dir });
    try {
      const read = openDb(dir);
      try {
        const rows = read
          .prepare(
            `select id, state, turn_id turnId, processed_at processedAt from system_event_states order by id`
          )
          .all() as {
          id: string;
          state: string;
          turnId: string | null;
          processedAt: number | null;
        }[];
        const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
        expect(byId['e-completed']).toMatchObject({ state: 'done', turnId: 't-completed' });
        expect(byId['e-completed']!.processedAt).toBeGreaterThanOrEqual(now);
        // Back in the queue for the next heartbeat (which may already have taken them).
        for (const id of ['e-failed', 'e-orphan']) {
          expect(['queued', 'processing', 'done']).toContain(byId[id]!.state);
          expect(byId[id]!.turnId).not.toMatch(/^t-(failed|gone)$/);
        }
        expect(rows.filter((r) => r.state === 'processing' && r.turnId?.startsWith('t-'))).toEqual(
          []
        );
      } finally {
        read.close();
      }
    } finally {
      await again.stop();
    }
  }, 30_000);
});

describe('the outbox across SIGKILL', () => {
  it('sends a message still waiting for its retry after the restart, with the same webhook-id', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const answers = [503];
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.push(req.headers);
        res.writeHead(answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;
    const dir = mkdtempSync(join(tmpdir(), 'berth-outbox-'));
    const config =
      berthConfig({
        webhookToken: TOKEN,
        agents: [
          {
            name: 'main',
            provider: 'builtin',
            heartbeatMs: 86_400_000,
            outbound: [
              { url, secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`, allowPrivate: true }
            ]
          }
        ]
      }) + 'outbound:\n  retryDelaysMs: [1500]\n';
    try {
      const berth = await startBerth({ config, dataDir: dir });
      const reply = await hook(
        berth.port,
        '/hooks/agent',
        { message: 'announce me', delivery: 'announce' },
        AUTH
      );
      expect(reply.status).toBe(200);
      await eventually(() => seen.length === 1);
      // Killed once the refused attempt is counted (Berth counts it when the answer is in).
      const watch = openDb(dir);
      try {
        await eventually(() => {
          const r = watch
            .prepare('select attempts from outbound_deliveries where turn_id = ?')
            .get(reply.json.turnId) as { attempts: number } | undefined;
          return r?.attempts === 1;
        });
      } finally {
        watch.close();
      }
      berth.proc.kill('SIGKILL');
      await berth.exited;

      const again = await startBerth({ config, dataDir: dir });
      try {
        await eventually(() => seen.length === 2, 6000);
        expect(seen[1]!['webhook-id']).toBe(seen[0]!['webhook-id']);
        const db = openDb(dir);
        try {
          const row = await eventually(() => {
            const r = db
              .prepare('select state, attempts from outbound_deliveries where turn_id = ?')
              .get(reply.json.turnId) as { state: string; attempts: number };
            return r.state === 'delivered' && r;
          });
          expect(row).toEqual({ state: 'delivered', attempts: 2 });
        } finally {
          db.close();
        }
      } finally {
        await again.stop();
      }
    } finally {
      receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

async function eventually<T>(
  read: () => T | null | false | Promise<T | null | false>,
  ms = 5000
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function state(url: string, turnId: string): Promise<string | undefined> {
  const res = await fetch(`${url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${OPS}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'turn.get', params: { turnId } })
  });
  const body = (await res.json()) as { result?: { state: string } };
  return body.result?.state;
}

/** A first delta at once, then nothing for a long while. */
function slowChunks(): object[] {
  const base = { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'fake' };
  return [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'never' } }] },
    { ...base, choices: [{ index: 0, delta: { content: ' finished' } }] }
  ];
}
