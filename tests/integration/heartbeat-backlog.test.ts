import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb, until } from '../fixtures/webhooks';
import { startBerth, type Berth } from './helpers/berth';
import { berthConfig } from './helpers/config';

/**
 * A restart onto 100,000 queued wake events (put straight into the SQLite file): Berth listens
 * and is ready at once, answers probes while its heartbeat works the backlog, stops promptly on
 * SIGTERM in the middle leaving what it had not taken queued, and the next start finishes it.
 */
const BACKLOG = 100_000;
const config = berthConfig({ agents: [{ name: 'main', provider: 'builtin', heartbeatMs: 1000 }] });

type Counts = Record<'queued' | 'processing' | 'done' | 'failed', number>;

function counts(db: Database.Database): Counts {
  const rows = db
    .prepare('select state, count(*) n from system_event_states group by state')
    .all() as {
    state: keyof Counts;
    n: number;
  }[];
  const out: Counts = { queued: 0, processing: 0, done: 0, failed: 0 };
  for (const row of rows) out[row.state] = row.n;
  return out;
}

/** Every Berth spawned here: one a failed assertion left running is killed after the test. */
const spawned: Berth[] = [];

/** Spawns Berth without waiting and times spawn → /readyz 200. */
async function startTimed(dataDir: string): Promise<{ berth: Berth; readyMs: number }> {
  const spawnedAt = performance.now();
  const berth = await startBerth({ config, dataDir, expectExit: true });
  spawned.push(berth);
  for (;;) {
    if (berth.proc.exitCode !== null) throw new Error(`berth exited:\n${berth.output()}`);
    try {
      if ((await fetch(`${berth.url}/readyz`)).status === 200)
        return { berth, readyMs: performance.now() - spawnedAt };
    } catch {
      // not listening yet
    }
    if (performance.now() - spawnedAt > 20_000) throw new Error('not ready within 20 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Times one /healthz while the backlog drains. */
async function healthz(berth: Berth): Promise<number> {
  const sent = performance.now();
  const res = await fetch(`${berth.url}/healthz`);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return performance.now() - sent;
}

/**
 * Probes answered while the backlog drains: most at once; none stalled for seconds (a drain
 * that held the loop would). One slow probe on a loaded machine is not that.
 */
function expectPrompt(latencies: number[]): void {
  const sorted = latencies.toSorted((a, b) => a - b);
  expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(250);
  expect(sorted.at(-1)).toBeLessThan(3000);
}

describe('heartbeat backlog across restarts', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-backlog-'));
  afterAll(async () => {
    for (const berth of spawned)
      if (berth.proc.exitCode === null && berth.proc.signalCode === null) {
        berth.proc.kill('SIGKILL');
        await berth.exited;
      }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'is ready within 1.5 s on 100,000 queued events, stops promptly mid-drain, then drains them all',
    {
      timeout: 60_000
    },
    async () => {
      // A first start creates the schema (and times a start with nothing queued); the backlog
      // is written while Berth is stopped.
      const first = await startTimed(dataDir);
      expect(await first.berth.stop()).toBe(0);
      // 1.5 s, unless this machine is too loaded to start even an empty Berth in 0.5 s: then
      // three times what the empty start took (/readyz's engine check shares the loop with the
      // drain). That the start does not wait for the backlog is shown by what is still queued.
      const readyWithin = Math.max(1500, 3 * first.readyMs);
      const seed = new Database(join(dataDir, 'berth.db'));
      const insert = seed.prepare(
        `insert into system_events (id, agent_name, state, text, metadata, source, created_at)
       values (?, 'main', 'queued', ?, '{"source":"ci"}', 'webhook', ?)`
      );
      const base = Date.now() - BACKLOG;
      seed.transaction(() => {
        for (let i = 0; i < BACKLOG; i++) insert.run(crypto.randomUUID(), `backlog ${i}`, base + i);
      })();
      seed.close();

      const db = openDb(dataDir);
      try {
        // Ready at once, and probes answer while the heartbeat takes the backlog.
        const { berth, readyMs } = await startTimed(dataDir);
        expect(counts(db).queued).toBeGreaterThan(0);
        expect(readyMs).toBeLessThan(readyWithin);
        // The first slice done, seen by one index probe: counting every event takes 40–70 ms,
        // and the SIGTERM below must come while most of the backlog still waits.
        const sliceDone = db.prepare(`select 1 from event_slices where state = 'done' limit 1`);
        await until(() => sliceDone.get() !== undefined, 10_000);
        const started = counts(db);
        expect(started.queued).toBeGreaterThan(0);
        const probes: number[] = [];
        for (let i = 0; i < 5; i++) probes.push(await healthz(berth));
        expectPrompt(probes);

        // SIGTERM mid-drain: a prompt, clean exit; nothing lost, the rest still queued.
        const signalled = performance.now();
        expect(await berth.stop('SIGTERM')).toBe(0);
        expect(performance.now() - signalled).toBeLessThan(5000);
        const stopped = counts(db);
        expect(stopped.queued).toBeGreaterThan(0);
        expect(stopped.failed).toBe(0);
        // Slices are claimed at most 4 turns of 500 ahead of the runner.
        expect(stopped.processing).toBeLessThanOrEqual(2000);
        expect(stopped.queued + stopped.processing + stopped.done).toBe(BACKLOG);

        // The next start is ready at once again and finishes every event.
        const again = await startTimed(dataDir);
        try {
          expect(counts(db).queued).toBeGreaterThan(0);
          expect(again.readyMs).toBeLessThan(readyWithin);
          // Probes keep answering until the queue is empty (bounded wait): one after another,
          // the queue counted every 100 ms (a count reads every event; the drain is quicker).
          const answered: number[] = [];
          const deadline = performance.now() + 30_000;
          let countedAt = performance.now();
          let drained = false;
          while (!drained && performance.now() < deadline) {
            answered.push(await healthz(again.berth));
            if (performance.now() - countedAt >= 100) {
              drained = counts(db).done >= BACKLOG;
              countedAt = performance.now();
            }
          }
          expect(answered.length).toBeGreaterThan(1);
          expectPrompt(answered);
          expect(counts(db)).toEqual({ queued: 0, processing: 0, done: BACKLOG, failed: 0 });
          // Each heartbeat turn took at most 500 events, and every such turn completed.
          const largest = db
            .prepare(
              `select max(n) n from (select count(*) n from system_event_states group by turn_id)`
            )
            .get() as { n: number };
          expect(largest.n).toBeLessThanOrEqual(500);
          const turns = db
            .prepare(
              `select count(*) n from turns where source = 'heartbeat' and state = 'completed'`
            )
            .get() as { n: number };
          expect(turns.n).toBeGreaterThanOrEqual(BACKLOG / 500);
        } finally {
          await again.berth.stop();
        }
      } finally {
        db.close();
      }
    }
  );
});
