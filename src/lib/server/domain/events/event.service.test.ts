import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventRecord } from '$lib/contracts/assistant';
import { testDomain } from '../testing';

type Domain = ReturnType<typeof testDomain>;
let domain: Domain | undefined;
afterEach(() => domain?.close());

const settled = (d: Domain, eventId: string) =>
  new Promise<void>((resolve) => {
    const check = () =>
      d.events.get(eventId).state === 'done' ? resolve() : setTimeout(check, 10);
    check();
  });

describe('EventService (real SQLite)', () => {
  it('queues a committed event that waits for the next heartbeat', () => {
    domain = testDomain();
    const event = domain.events.wake({
      agentName: 'main',
      text: 'deploy finished',
      metadata: { source: 'ci' },
      source: 'webhook'
    });
    expect(event.state).toBe('queued');
    expect(
      domain.database.sqlite
        .prepare('select state, text from system_event_states where id = ?')
        .get(event.eventId)
    ).toEqual({ state: 'queued', text: 'deploy finished' });
    expect(domain.agents.status('main').queuedEvents).toBe(1);
  });

  it('announces a wake made in a transaction once it commits, never when it rolls back', () => {
    domain = testDomain();
    const d = domain;
    const seen: string[] = [];
    d.bus.on('event.changed', (e) => seen.push(e.text));
    expect(() =>
      d.database.db.transaction(() => {
        d.events.wake({ agentName: 'main', text: 'rolled back', source: 'webhook' });
        throw new Error('storage refused');
      })
    ).toThrow('storage refused');
    d.database.db.transaction(() => {
      d.events.wake({ agentName: 'main', text: 'committed', source: 'webhook' });
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['committed']);
    expect(d.agents.status('main').queuedEvents).toBe(1);
  });

  it('a heartbeat takes all queued events into one turn, and they follow it to done', async () => {
    domain = testDomain();
    const a = domain.events.wake({ agentName: 'main', text: 'first', source: 'webhook' });
    const b = domain.events.wake({
      agentName: 'main',
      text: 'second',
      metadata: { source: 'ci' },
      source: 'webhook'
    });
    const changed: EventRecord[] = [];
    domain.bus.on('event.changed', (e) => changed.push(e));
    const turnId = domain.events.beat('main');
    expect(turnId).toBeTruthy();
    // Those who follow events see them taken, whole, with their turn.
    expect(changed).toEqual([
      { ...a, state: 'processing', turnId },
      { ...b, state: 'processing', turnId }
    ]);
    expect(
      domain.database.sqlite
        .prepare(
          'select m.content from turns t join messages m on m.id = t.message_id where t.id = ?'
        )
        .get(turnId)
    ).toEqual({ content: 'System events:\n- first\n- second (source: ci)' });
    const turn = await domain.turns.waitFor(turnId!, 5000);
    expect(turn.result).toBe('Noted 2 system events.');
    await settled(domain, a.eventId);
    expect(domain.events.get(b.eventId)).toMatchObject({ state: 'done', turnId });
    expect(domain.events.get(a.eventId).processedAt).toBeGreaterThan(0);
    const status = domain.agents.status('main');
    expect(status.queuedEvents).toBe(0);
    expect(status.nextHeartbeatAt! - status.lastHeartbeatAt!).toBe(30_000);
    expect(domain.events.beat('main')).toBeNull();
  });

  it('at start, events queued for an agent that is gone fail; the others are taken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-events-'));
    const before = testDomain({ agents: [{ name: 'main' }, { name: 'gone' }] }, dir);
    const orphan = before.events.wake({ agentName: 'gone', text: 'x', source: 'webhook' });
    const kept = before.events.wake({ agentName: 'main', text: 'y', source: 'webhook' });
    before.close(false);
    domain = testDomain({ agents: [{ name: 'main', heartbeatMs: 3_600_000 }] }, dir);
    domain.events.start();
    expect(domain.events.get(orphan.eventId).state).toBe('failed');
    // The beat at start takes the kept event to done (and nothing runs on after the test).
    await settled(domain, kept.eventId);
  });

  it('mode "now" asks for an immediate heartbeat', async () => {
    domain = testDomain({ agents: [{ name: 'main', heartbeatMs: 3_600_000 }] });
    const event = domain.events.wake({
      agentName: 'main',
      text: 'urgent',
      source: 'webhook',
      mode: 'now'
    });
    await settled(domain, event.eventId);
    expect(domain.events.get(event.eventId).turnId).toBeTruthy();
  });

  it('heartbeats run on the configured interval', async () => {
    domain = testDomain({ agents: [{ name: 'fast', heartbeatMs: 1000 }] });
    domain.events.start();
    const event = domain.events.wake({ agentName: 'fast', text: 'tick', source: 'webhook' });
    await settled(domain, event.eventId);
    expect(domain.events.list({ agentName: 'fast', state: 'done' }, 10).events).toHaveLength(1);
  });

  it('works a backlog in slices of 500 a few turns ahead, letting timers run between them', async () => {
    domain = testDomain({ agents: [{ name: 'main', heartbeatMs: 3_600_000 }] });
    seed(domain, 6000);
    const sqlite = domain.database.sqlite;
    const states = sqlite.prepare(
      'select state, count(*) n from system_event_states group by state order by state'
    );
    // The slices under way hold what is processing: cheap enough to read every millisecond.
    const processing = sqlite.prepare(
      `select coalesce(sum(count), 0) n from event_slices where state = 'processing'`
    );
    let ticks = 0;
    let mostProcessing = 0;
    const ticker = setInterval(() => {
      ticks++;
      mostProcessing = Math.max(mostProcessing, (processing.get() as { n: number }).n);
    }, 1);
    domain.events.start();
    // The first beat waits for the next loop turn: start itself reads no events.
    expect(states.all()).toEqual([{ state: 'queued', n: 6000 }]);
    const done = sqlite.prepare(`select count(*) n from system_event_states where state = 'done'`);
    while ((done.get() as { n: number }).n < 6000) await new Promise((r) => setTimeout(r, 5));
    clearInterval(ticker);
    // Timers ran between the slices of 12 turns (the drain takes about 100 ms).
    expect(ticks).toBeGreaterThanOrEqual(3);
    expect(mostProcessing).toBeGreaterThan(0);
    // At most four turns ahead of the runner.
    expect(mostProcessing).toBeLessThanOrEqual(2000);
    const sizes = sqlite
      .prepare('select count(*) n from system_event_states group by turn_id')
      .all() as {
      n: number;
    }[];
    expect(sizes).toHaveLength(12);
    expect(sizes.every((s) => s.n === 500)).toBe(true);
    const status = domain.agents.status('main');
    expect(status).toMatchObject({ state: 'idle', queuedEvents: 0 });
    expect(status.nextHeartbeatAt! - status.lastHeartbeatAt!).toBeGreaterThan(3_500_000);
  });

  it('a turn takes events while their text stays within 32,000 bytes, one at least', async () => {
    domain = testDomain({ agents: [{ name: 'main', heartbeatMs: 3_600_000 }] });
    seed(domain, 10, 'x'.repeat(10_000));
    seed(domain, 1, 'y'.repeat(100_000));
    seed(domain, 2);
    // 20,000 bytes each in UTF-8: two do not fit in one turn.
    seed(domain, 2, 'é'.repeat(10_000));
    domain.events.start();
    const sqlite = domain.database.sqlite;
    const done = sqlite.prepare(`select count(*) n from system_event_states where state = 'done'`);
    while ((done.get() as { n: number }).n < 15) await new Promise((r) => setTimeout(r, 5));
    const turns = sqlite
      .prepare(
        `select count(*) n, sum(length(text)) chars from system_event_states
         group by turn_id order by min(created_at)`
      )
      .all();
    // A longer event goes alone; the short ones after it wait for the next turn, in order.
    expect(turns).toEqual([
      { n: 3, chars: 30_000 },
      { n: 3, chars: 30_000 },
      { n: 3, chars: 30_000 },
      { n: 1, chars: 10_000 },
      { n: 1, chars: 100_000 },
      { n: 3, chars: 14 + 10_000 },
      { n: 1, chars: 10_000 }
    ]);
  });

  it('stop leaves what was not taken queued, and claims no more', async () => {
    domain = testDomain({ agents: [{ name: 'main', heartbeatMs: 3_600_000 }] });
    // More than the 4 turns of 500 a first beat may claim at once.
    seed(domain, 3000);
    domain.events.start();
    const count = domain.database.sqlite.prepare(
      `select count(*) n from system_event_states where state != 'queued'`
    );
    while ((count.get() as { n: number }).n === 0) await new Promise((r) => setImmediate(r));
    domain.events.stop();
    const taken = (count.get() as { n: number }).n;
    await new Promise((r) => setTimeout(r, 100));
    expect((count.get() as { n: number }).n).toBe(taken);
    expect(taken).toBeLessThan(3000);
    expect(domain.agents.status('main').queuedEvents).toBe(3000 - taken);
  });

  it('a burst of "now" wakes coalesces into a few full turns', async () => {
    domain = testDomain({ agents: [{ name: 'main', heartbeatMs: 3_600_000 }] });
    const turns: string[] = [];
    domain.bus.on('turn.changed', (t) => {
      if (t.state === 'queued') turns.push(t.turnId);
    });
    const events = Array.from({ length: 1200 }, (_, i) =>
      domain!.events.wake({ agentName: 'main', text: `now ${i}`, source: 'webhook', mode: 'now' })
    );
    expect(turns).toHaveLength(0); // nothing runs inside the request that woke
    await settled(domain, events.at(-1)!.eventId);
    expect(turns).toHaveLength(3);
    expect(domain.agents.status('main').lastHeartbeatAt).toBeGreaterThan(0);
  });

  it('lists events newest first in pages, by state through their slices', () => {
    domain = testDomain();
    const ids = ['a', 'b', 'c', 'd', 'e'].map(
      (text) => domain!.events.wake({ agentName: 'main', text, source: 'webhook' }).eventId
    );
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = domain.events.list({}, 2, cursor);
      pages.push(page.events.map((e) => e.text));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages).toEqual([['e', 'd'], ['c', 'b'], ['a']]);
    domain.events.beat('main');
    const processing = domain.events.list({ state: 'processing' }, 10).events;
    expect(processing.map((e) => e.eventId)).toEqual([...ids].reverse());
    expect(domain.events.list({ state: 'queued' }, 10).events).toEqual([]);
    expect(() => domain!.events.list({}, 2, 'not-a-cursor')).toThrow(/cursor/);
  });

  it('shows the next heartbeat as soon as the timer starts', () => {
    domain = testDomain({ agents: [{ name: 'main', heartbeatMs: 60_000 }] });
    const before = Date.now();
    domain.events.start();
    const status = domain.agents.status('main');
    expect(status.lastHeartbeatAt).toBeNull();
    expect(status.nextHeartbeatAt).toBeGreaterThanOrEqual(before + 60_000);
  });
});

/** Queues `n` events for `main` straight into the file, oldest first, after any seeded before. */
function seed(d: Domain, n: number, text?: string): void {
  const insert = d.database.sqlite.prepare(
    `insert into system_events (id, agent_name, state, text, source, created_at)
     values (?, 'main', 'queued', ?, 'webhook', ?)`
  );
  const base = Date.now() - 1_000_000 + seeded;
  seeded += n;
  d.database.sqlite.transaction(() => {
    for (let i = 0; i < n; i++) insert.run(crypto.randomUUID(), text ?? `event ${i}`, base + i);
  })();
}
let seeded = 0;
