import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseHealth } from '../db/db-health';
import { watchLocks } from '../db/lock-watch';
import { BUSY_TIMEOUT_MS, storageFault } from '../db/storage-fault';
import { toDomainError } from '../errors';
import { unlessUnavailable, whenStored } from './storage-retry';
import { testDomain } from './testing';

/**
 * A second connection holding `BEGIN EXCLUSIVE` on the domain's SQLite file, as another
 * process would: Berth's writes meet SQLITE_BUSY after the short busy timeout.
 */
type Domain = ReturnType<typeof testDomain>;
let domain: Domain | undefined;
let locker: Database.Database | undefined;
afterEach(() => {
  if (locker?.inTransaction) locker.exec('ROLLBACK');
  locker?.close();
  locker = undefined;
  domain?.close();
  domain = undefined;
});

function lock(d: Domain): () => void {
  locker = new Database(join(d.dir, 'berth.db'));
  locker.exec('BEGIN EXCLUSIVE');
  return () => locker!.exec('COMMIT');
}

/** Takes the write lock as soon as a turn starts running; `release` is set once it is held. */
function lockOnceRunning(d: Domain): { release?: () => void } {
  const held: { release?: () => void } = {};
  d.bus.on('turn.changed', (t) => {
    if (t.state === 'running' && !held.release) held.release = lock(d);
  });
  return held;
}

const later = (ms: number) => new Promise((r) => setTimeout(r, ms));
const count = (d: Domain, sql: string, ...params: unknown[]) =>
  (d.database.sqlite.prepare(sql).get(...params) as { n: number }).n;

describe('storage faults', () => {
  it('a write under another connection’s lock fails fast as busy; a read still answers', () => {
    domain = testDomain();
    const d = domain;
    lock(d);
    const started = performance.now();
    let thrown: unknown;
    try {
      d.turns.enqueue({
        agentName: 'main',
        sessionKey: 'k',
        input: 'hi',
        source: 'rest',
        trust: 'operator'
      });
    } catch (err) {
      thrown = err;
    }
    expect(performance.now() - started).toBeLessThan(500);
    expect(storageFault(thrown)).toBe('busy');
    expect(toDomainError(thrown)).toMatchObject({
      code: 'UNAVAILABLE',
      extra: { retryAfterSeconds: 1 }
    });
    expect(count(d, 'select count(*) n from turns')).toBe(0);
    expect(d.turns.list({}, 10).turns).toEqual([]);
  });

  it('classifies full disks and I/O errors, and leaves other SQLite errors alone', () => {
    const full = new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    const io = new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_WRITE');
    const unique = new Database.SqliteError('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE');
    expect(storageFault(full)).toBe('full');
    expect(toDomainError(full)).toMatchObject({ code: 'UNAVAILABLE' });
    expect(storageFault(io)).toBe('io');
    expect(storageFault(unique)).toBeNull();
    expect(toDomainError(unique)).toBeNull();
    expect(storageFault(Object.assign(new Error('x'), { code: 'SQLITE_BUSY' }))).toBeNull();
    expect(() =>
      unlessUnavailable(() => {
        throw unique;
      })
    ).toThrow(unique);
    expect(
      unlessUnavailable(() => {
        throw full;
      })
    ).toBe(false);
  });

  it('whenStored tries again until the lock is released, then commits once', async () => {
    domain = testDomain();
    const d = domain;
    const release = lock(d);
    let tries = 0;
    const stored = whenStored(() => {
      tries++;
      return d.events.wake({ agentName: 'main', text: 'after the lock', source: 'test' });
    });
    setTimeout(release, 300);
    const event = await stored;
    expect(event?.state).toBe('queued');
    expect(tries).toBeGreaterThan(1);
    expect(count(d, "select count(*) n from system_events where text = 'after the lock'")).toBe(1);
  });

  it('whenStored gives up when its owner stops, and rethrows anything but a storage fault', async () => {
    domain = testDomain();
    lock(domain);
    let stopped = false;
    const stored = whenStored(
      () => domain!.database.sqlite.exec('create table x (a)'),
      () => stopped
    );
    stopped = true;
    await expect(stored).resolves.toBeUndefined();
    await expect(
      whenStored(() => {
        throw new Error('not storage');
      })
    ).rejects.toThrow('not storage');
  });

  it('a turn whose claim is refused stays queued and completes after the lock', async () => {
    domain = testDomain();
    const d = domain;
    const { turnId } = d.turns.enqueue({
      agentName: 'main',
      sessionKey: 'k',
      input: 'hello',
      source: 'rest',
      trust: 'operator'
    });
    // Taken before the runner's claim (queued in a microtask) can run.
    const release = lock(d);
    await later(150);
    expect(d.turns.get(turnId).state).toBe('queued');
    release();
    const done = await d.turns.waitFor(turnId, 5000);
    expect(done.state).toBe('completed');
  });

  it('a reply whose commit is refused is committed once after the lock, not failed', async () => {
    domain = testDomain();
    const d = domain;
    const held = lockOnceRunning(d);
    const { turnId, sessionId } = d.turns.enqueue({
      agentName: 'main',
      sessionKey: 'k',
      input: 'hello',
      source: 'rest',
      trust: 'operator'
    });
    await later(300);
    expect(d.turns.get(turnId).state).toBe('running');
    held.release!();
    const done = await d.turns.waitFor(turnId, 5000);
    expect(done.state).toBe('completed');
    expect(d.chatSessions.get(sessionId, 10).messages.map((m) => m.role)).toEqual([
      'user',
      'assistant'
    ]);
  });

  it('a skill run whose start is refused waits for the lock, runs, and its turn completes', async () => {
    domain = testDomain();
    const d = domain;
    const held = lockOnceRunning(d);
    const { turnId } = d.turns.enqueue({
      agentName: 'main',
      sessionKey: 'k',
      input: '/skill echo {"a":1}',
      source: 'rest',
      trust: 'operator'
    });
    await later(300);
    held.release!();
    const done = await d.turns.waitFor(turnId, 5000);
    expect(done).toMatchObject({ state: 'completed', result: 'Skill echo returned: {"a":1}' });
    expect(
      d.database.sqlite
        .prepare('select status from skill_runs where trigger = ?')
        .all(`turn:${turnId}`)
    ).toEqual([{ status: 'completed' }]);
  });

  it('a heartbeat refused by the lock leaves its events queued and takes them afterwards', async () => {
    domain = testDomain();
    const d = domain;
    const event = d.events.wake({ agentName: 'main', text: 'deployed', source: 'webhook' });
    const release = lock(d);
    expect(d.events.beat('main')).toBeNull();
    expect(d.events.get(event.eventId).state).toBe('queued');
    release();
    for (let i = 0; i < 100 && d.events.get(event.eventId).state !== 'done'; i++) await later(20);
    expect(d.events.get(event.eventId)).toMatchObject({ state: 'done' });
    expect(count(d, "select count(*) n from turns where source = 'heartbeat'")).toBe(1);
  });

  it('after one write meets the lock, the next fail at once; the wait returns with the lock free', async () => {
    domain = testDomain();
    const d = domain;
    const stop = watchLocks(d.database.sqlite, 20);
    const write = () => {
      try {
        d.events.wake({ agentName: 'main', text: 'x', source: 'test' });
        return null;
      } catch (err) {
        return storageFault(err);
      }
    };
    try {
      const release = lock(d);
      expect(write()).toBe('busy');
      const started = performance.now();
      for (let i = 0; i < 20; i++) expect(write()).toBe('busy');
      // Without waiting: 20 writes waiting out the lock would take 20 × BUSY_TIMEOUT_MS.
      expect(performance.now() - started).toBeLessThan(5 * BUSY_TIMEOUT_MS);
      expect(d.database.sqlite.pragma('busy_timeout', { simple: true })).toBe(0);
      release();
      await later(100);
      expect(d.database.sqlite.pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS);
      expect(write()).toBeNull();
    } finally {
      stop();
    }
  });

  it('the readiness check reports writes failing under the lock, and recovers', async () => {
    domain = testDomain();
    const warned: string[] = [];
    const health = new DatabaseHealth(
      domain.database.sqlite,
      (_fault, detail) => warned.push(detail),
      0
    );
    try {
      expect(health.check()).toMatchObject({ status: 'ok' });
      const release = lock(domain);
      for (let i = 0; i < 3; i++)
        expect(health.check()).toEqual({
          status: 'error',
          detail: 'database locked by another process: writes failing'
        });
      // Logged once for the episode, not once per refusal.
      expect(warned).toEqual(['database locked by another process: writes failing']);
      release();
      await later(250);
      expect(health.check()).toMatchObject({ status: 'ok' });
    } finally {
      health.stop();
    }
  });
});
