import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AUTH, hook, openDb, TOKEN, until } from '../fixtures/webhooks';
import { freePort, startBerth, type Berth } from './helpers/berth';
import { berthConfig, OPS } from './helpers/config';
import { callRpc } from './helpers/rpc';
import { TURN_INPUT } from './helpers/turns';

/**
 * SIGKILL in the middle of a burst of wakes, three times on one data dir: every 200 carrying
 * an eventId or turnId is in SQLite afterwards, nothing is doubled (retries with the same
 * Idempotency-Key included), and the restarted process finishes what was queued or running.
 */
const config = berthConfig({
  rpcTokens: [{ name: 'ops', token: OPS }],
  webhookToken: TOKEN,
  webhooks: { rateLimit: { maxRequests: 1000000, windowMs: 60000 } },
  agents: [
    { name: 'main', provider: 'builtin', heartbeatMs: 1000 },
    { name: 'slow', provider: 'builtin', heartbeatMs: 30000 }
  ]
});

interface Ack {
  key: string;
  text: string;
  eventId?: string;
  turnId?: string;
}

type Count = { n: number };

describe('durability across SIGKILL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-durable-'));
  // An engine that accepts and never answers: a turn running a skill on it stays `running`.
  const held: Socket[] = [];
  const engine = createServer((socket) => held.push(socket));
  afterAll(() => {
    for (const socket of held) socket.destroy();
    engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged wake, duplicates none, and resumes queued and running work', async () => {
    const enginePort = await freePort();
    await new Promise<void>((done) => engine.listen(enginePort, '127.0.0.1', done));
    const env = { DOCKER_HOST: `tcp://127.0.0.1:${enginePort}` };
    const acked: Ack[] = [];

    for (let round = 1; round <= 3; round++) {
      const berth = await startBerth({ config, dataDir, env });
      // Two turns that will be mid-run (waiting on the silent engine) when the process dies:
      // sent over RPC, as webhook text never runs a skill.
      const slowIds = await Promise.all([1, 2].map((i) => sendSlow(berth, `slow-${round}-${i}`)));

      const roundAcks = await burst(berth, round, 1200);
      expect(roundAcks.length).toBeGreaterThan(20);
      acked.push(...roundAcks);
      await berth.exited;

      const db = openDb(dataDir);
      try {
        const event = db.prepare('select count(*) n from system_events where id = ?');
        const turn = db.prepare('select count(*) n from turns where id = ?');
        for (const ack of acked) {
          if (ack.eventId) expect((event.get(ack.eventId) as Count).n).toBe(1);
          if (ack.turnId) expect((turn.get(ack.turnId) as Count).n).toBe(1);
        }
        const doubled = db
          .prepare(
            `select text from system_events where text like 'burst-%' group by text having count(*) > 1
             union all
             select ${TURN_INPUT} i from turns where i like 'burst-%' group by i having count(*) > 1`
          )
          .all();
        expect(doubled).toEqual([]);
        const running = db
          .prepare(`select count(*) n from turns where agent_name = 'slow' and state = 'running'`)
          .get() as Count;
        expect(running.n).toBe(2);
        const queued = db
          .prepare(`select count(*) n from system_event_states where state = 'queued'`)
          .get() as Count;
        expect(queued.n).toBeGreaterThan(0);
      } finally {
        db.close();
      }

      // Same data dir again: queued events and turns go on, running ones are re-queued.
      for (const socket of held.splice(0)) socket.destroy();
      const again = await startBerth({
        config,
        dataDir,
        env: { DOCKER_HOST: 'tcp://127.0.0.1:1' }
      });
      try {
        const retries = acked.filter((a) => a.eventId).slice(-40);
        const replays = await Promise.all(
          retries.map((a) =>
            hook(again.port, '/hooks/wake', { text: a.text }, { ...AUTH, 'idempotency-key': a.key })
          )
        );
        replays.forEach((reply, i) => expect(reply.json.eventId).toBe(retries[i]!.eventId));

        const db2 = openDb(dataDir);
        try {
          const counts = () =>
            db2
              .prepare(
                `select
                   (select count(*) from system_event_states where state in ('queued','processing')) pending,
                   (select count(*) from turns where state in ('queued','running')) unfinished,
                   (select count(*) from system_events where text like 'burst-%') events`
              )
              .get() as { pending: number; unfinished: number; events: number };
          const settled = await until(() => {
            const c = counts();
            return c.pending === 0 && c.unfinished === 0 && c;
          }, 15_000);
          expect(settled.events).toBe(
            (
              db2
                .prepare(
                  `select count(distinct text) n from system_events where text like 'burst-%'`
                )
                .get() as Count
            ).n
          );
          const slowStates = slowIds.map(
            (id) =>
              db2.prepare('select state, attempts from turns where id = ?').get(id) as {
                state: string;
                attempts: number;
              }
          );
          for (const s of slowStates) expect(s).toEqual({ state: 'completed', attempts: 2 });
          const failed = db2
            .prepare(`select count(*) n from turns where state = 'failed'`)
            .get() as Count;
          expect(failed.n).toBe(0);
        } finally {
          db2.close();
        }
      } finally {
        await again.stop();
      }
    }
  }, 90_000);
});

/** A turn on the `slow` agent running engine.containers, which the silent engine holds. */
async function sendSlow(berth: Berth, userId: string): Promise<string> {
  const { result } = await callRpc<{ turnId: string }>(berth, OPS, 'agent.sendMessage', {
    agentName: 'slow',
    userId,
    message: '/skill engine.containers {}'
  });
  return result!.turnId;
}

/** ~20 concurrent senders of unique wakes (every fifth an agent turn) until SIGKILL at `killAfterMs`. */
async function burst(berth: Berth, round: number, killAfterMs: number): Promise<Ack[]> {
  const acks: Ack[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 20 });
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    berth.proc.kill('SIGKILL');
  }, killAfterMs);
  let n = 0;
  const worker = async (w: number) => {
    while (!killed) {
      const i = n++;
      const text = `burst-${round}-${w}-${i}`;
      const key = `key-${text}`;
      const asTurn = i % 5 === 4;
      try {
        const reply = await hook(
          berth.port,
          asTurn ? '/hooks/agent' : '/hooks/wake',
          asTurn ? { message: text, session: `webhook:burst-${round}` } : { text },
          { ...AUTH, 'idempotency-key': key },
          agent
        );
        if (reply.status !== 200) throw new Error(`unexpected ${reply.status}: ${reply.text}`);
        acks.push({
          key,
          text,
          eventId: reply.json.eventId as string | undefined,
          turnId: reply.json.turnId as string | undefined
        });
      } catch (err) {
        if (!killed) throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: 20 }, (_, w) => worker(w)));
  clearTimeout(timer);
  agent.destroy();
  return acks;
}
