import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../client';
import { EventRepository, uuidv7Floor, type Taken } from './event.repository';

const dirs: string[] = [];
const opened: OpenedDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(file: string, migrations = resolve('drizzle')) {
  const db = openDatabase(file, migrations);
  opened.push(db);
  return db;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'berth-events-repo-'));
  dirs.push(dir);
  return dir;
}

const insertEvent = (
  db: OpenedDatabase,
  id: string,
  state = 'queued',
  turnId: string | null = null
) =>
  db.sqlite
    .prepare(
      `insert into system_events (id, agent_name, state, text, source, turn_id, created_at)
       values (?, 'main', ?, ?, 'webhook', ?, ?)`
    )
    .run(id, state, `text of ${id}`, turnId, Date.now());

// Each event's line is `- text of <id>` (with its source, when it has one).
const ids = (taken: Taken | null) =>
  taken?.lines.split('\n').map((line) => /^- text of (\S+)/.exec(line)?.[1]) ?? [];

describe('EventRepository slices', () => {
  it('takes a slice a lost turn left first, in pieces within the bounds, then newer events', () => {
    const db = open(join(tempDir(), 'berth.db'));
    const repo = new EventRepository(db.db);
    for (const id of ['e1', 'e2', 'e3', 'e4', 'e5']) insertEvent(db, id);
    expect(ids(repo.claim('main', 't1', 3, 32_000))).toEqual(['e1', 'e2', 'e3']);
    expect(ids(repo.claim('main', 't2', 10, 32_000))).toEqual(['e4', 'e5']);
    insertEvent(db, 'e6');
    expect(repo.byId('e2')).toMatchObject({ state: 'processing', turnId: 't1' });
    expect(repo.byId('e6')).toMatchObject({ state: 'queued', turnId: null });
    // A crash: neither turn exists any more.
    expect(repo.recoverProcessing(Date.now())).toEqual({ done: 0, requeued: 5 });
    expect(repo.byId('e2')).toMatchObject({ state: 'queued', turnId: null });
    expect(repo.countQueued('main')).toBe(6);

    const first = repo.claim('main', 't3', 2, 32_000);
    expect(repo.claimed('main', first!, 't3').map((r) => [r.id, r.state, r.turnId])).toEqual([
      ['e1', 'processing', 't3'],
      ['e2', 'processing', 't3']
    ]);
    expect(ids(repo.claim('main', 't4', 10, 32_000))).toEqual(['e3']);
    expect(ids(repo.claim('main', 't5', 10, 32_000))).toEqual(['e4', 'e5']);
    expect(ids(repo.claim('main', 't6', 10, 32_000))).toEqual(['e6']);
    expect(repo.claim('main', 't7', 10, 32_000)).toBeNull();
    expect(repo.hasQueued('main')).toBe(false);

    const finished = repo.finishForTurn('t3', 'done', 1234, true);
    expect(finished.map((r) => [r.id, r.state, r.processedAt])).toEqual([
      ['e1', 'done', 1234],
      ['e2', 'done', 1234]
    ]);
    expect(repo.byId('e3')).toMatchObject({ state: 'processing', turnId: 't4' });
    expect(
      repo
        .page({ agentName: 'main', state: 'done' }, 10)
        .map((r) => r.id)
        .sort()
    ).toEqual(['e1', 'e2']);
  });

  it('bounds a slice by the bytes of its texts, one event at least', () => {
    const db = open(join(tempDir(), 'berth.db'));
    const repo = new EventRepository(db.db);
    for (const id of ['a', 'b', 'c']) insertEvent(db, id); // "text of a": 9 bytes each
    expect(ids(repo.claim('main', 't1', 10, 18))).toEqual(['a', 'b']);
    expect(ids(repo.claim('main', 't2', 10, 1))).toEqual(['c']);
    // UTF-8 bytes, not characters: "text of é" is 10 bytes.
    for (const id of ['é', 'ü', 'x']) insertEvent(db, id);
    expect(ids(repo.claim('main', 't3', 10, 19))).toEqual(['é']);
    expect(ids(repo.claim('main', 't4', 10, 20))).toEqual(['ü', 'x']);
  });

  it("gives each taken event's text and its metadata's source only when that is a string", () => {
    const db = open(join(tempDir(), 'berth.db'));
    const repo = new EventRepository(db.db);
    const put = (id: string, metadata: string | null) =>
      db.sqlite
        .prepare(
          `insert into system_events (id, agent_name, state, text, metadata, source, created_at)
           values (?, 'main', 'queued', ?, ?, 'webhook', 1)`
        )
        .run(id, `text of ${id}`, metadata);
    put('named', '{"source":"github","n":1}');
    put('object', '{"source":{"a":1}}');
    put('number', '{"source":7}');
    put('none', null);
    const taken = repo.claim('main', 't1', 10, 32_000)!;
    expect(taken.count).toBe(4);
    expect(taken.lines.split('\n')).toEqual([
      '- text of named (source: github)',
      '- text of object',
      '- text of number',
      '- text of none'
    ]);
    expect(repo.claimed('main', taken, 't1').map((e) => e.metadata)).toEqual([
      { source: 'github', n: 1 },
      { source: { a: 1 } },
      { source: 7 },
      null
    ]);
  });

  // Events stored before slices: their own states, turns and times are kept or settled.
  it('migrates events stored before slices: settled, re-queued in order, none taken twice', () => {
    const dir = tempDir();
    const before = join(dir, 'before-slices');
    cpSync(resolve('drizzle'), before, { recursive: true });
    const journal = join(before, 'meta', '_journal.json');
    const parsed = JSON.parse(readFileSync(journal, 'utf8')) as { entries: { tag: string }[] };
    parsed.entries = parsed.entries.filter((e) => e.tag < '0011');
    writeFileSync(journal, JSON.stringify(parsed));
    const file = join(dir, 'berth.db');
    const old = open(file, before);
    const turn = old.sqlite.prepare(
      `insert into turns (id, session_id, agent_name, state, source, input, queued_at)
       values (?, 's', 'main', ?, 'heartbeat', 'System events', ?)`
    );
    turn.run('tc', 'completed', Date.now());
    turn.run('tf', 'failed', Date.now());
    insertEvent(old, 'queued-early');
    insertEvent(old, 'done-old', 'done', 'tc');
    insertEvent(old, 'of-completed', 'processing', 'tc');
    insertEvent(old, 'of-failed', 'processing', 'tf');
    insertEvent(old, 'queued-late');
    old.close();

    const db = open(file);
    const repo = new EventRepository(db.db);
    expect(repo.byId('done-old')).toMatchObject({ state: 'done', turnId: 'tc' });
    expect(repo.byId('of-completed')).toMatchObject({ state: 'done', turnId: 'tc' });
    expect(repo.byId('of-completed')!.processedAt).toBeGreaterThan(0);
    expect(repo.byId('of-failed')).toMatchObject({ state: 'queued', turnId: null });
    expect(repo.countQueued('main')).toBe(3);
    expect(ids(repo.claim('main', 't1', 10, 32_000))).toEqual(['queued-early']);
    expect(ids(repo.claim('main', 't2', 10, 32_000))).toEqual(['of-failed', 'queued-late']);
    expect(repo.claim('main', 't3', 10, 32_000)).toBeNull();
    expect(repo.byId('done-old')).toMatchObject({ state: 'done', turnId: 'tc' });
  });
});

describe('EventRepository.insertingTogether', () => {
  const queue = (repo: EventRepository, id: string) =>
    repo.insertQueued({
      id,
      agentName: 'main',
      text: `text of ${id}`,
      metadata: { source: 'test' },
      source: 'webhook',
      createdAt: 1
    });

  it('writes what the work queued as it ends, in order, whole statements and the rest', () => {
    const db = open(join(tempDir(), 'berth.db'));
    const repo = new EventRepository(db.db);
    const names = Array.from({ length: 70 }, (_, i) => `e${String(i).padStart(2, '0')}`);
    const seenInside = repo.atomically(() =>
      repo.insertingTogether(() => {
        for (const id of names) queue(repo, id);
        return repo.byId('e00');
      })
    );
    expect(seenInside).toBeUndefined(); // held until the work ends
    expect(repo.byId('e69')).toMatchObject({ state: 'queued', metadata: { source: 'test' } });
    expect(ids(repo.claim('main', 't1', 100, 32_000))).toEqual(names);
    queue(repo, 'alone'); // outside: written at once
    expect(repo.byId('alone')).toBeDefined();
  });

  it('fails the work when the write fails, and its transaction keeps none of it', () => {
    const db = open(join(tempDir(), 'berth.db'));
    const repo = new EventRepository(db.db);
    queue(repo, 'taken');
    expect(() =>
      repo.atomically(() =>
        repo.insertingTogether(() => {
          queue(repo, 'fresh');
          queue(repo, 'taken'); // a duplicate id: the write at the end fails
        })
      )
    ).toThrow(/UNIQUE/);
    expect(repo.byId('fresh')).toBeUndefined();
    queue(repo, 'after'); // holding ended with the failure
    expect(repo.byId('after')).toBeDefined();
  });
});

describe('EventRepository.page (the Activity timeline)', () => {
  // Events as EventService.wake stores them: UUID v7 ids, the time the id's. Three a
  // millisecond, every other millisecond; within one, ids count up as uuidv7's do.
  function stored(repo: EventRepository, count: number, start: number) {
    const made = [];
    for (let i = 0; i < count; i++) {
      const ms = start + Math.floor(i / 3) * 2;
      const random = randomBytes(8).toString('hex');
      const id = `${uuidv7Floor(ms)}-7${(i % 3).toString(16).padStart(3, '0')}-8${random.slice(0, 3)}-${random.slice(3, 15)}`;
      made.push(
        repo.insertQueued({
          id,
          agentName: i % 4 ? 'main' : 'ops',
          text: `event ${i}`,
          metadata: null,
          source: i % 2 ? 'webhook' : 'rpc',
          createdAt: ms
        })
      );
    }
    return made;
  }
  const newestFirst = (rows: { createdAt: number; id: string }[]) =>
    [...rows].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).map((r) => r.id);

  it('pages newest first by time then id, exactly, from any cursor, with every filter', () => {
    const db = open(join(tempDir(), 'berth.db'));
    const repo = new EventRepository(db.db);
    const start = Date.now() - 10_000;
    const all = stored(repo, 200, start);
    const walk = (filter: Parameters<EventRepository['page']>[0], limit: number) => {
      const seen: string[] = [];
      let cursor: { at: number; id: string } | undefined;
      for (;;) {
        const rows = repo.page(filter, limit, cursor);
        seen.push(...rows.map((r) => r.id));
        if (rows.length < limit) return seen;
        const last = rows[rows.length - 1]!;
        cursor = { at: last.createdAt, id: last.id };
      }
    };
    expect(walk({}, 7)).toEqual(newestFirst(all));
    expect(walk({ agentName: 'ops' }, 5)).toEqual(
      newestFirst(all.filter((e) => e.agentName === 'ops'))
    );
    const since = start + 40;
    const until = start + 90;
    expect(walk({ source: 'rpc', since, until }, 4)).toEqual(
      newestFirst(
        all.filter((e) => e.source === 'rpc' && e.createdAt >= since && e.createdAt < until)
      )
    );
    // A cursor from a turn: its time decides, and at the same time its id against the events'.
    const at = all[90]!.createdAt;
    const before = (id: string) => repo.page({}, 500, { at, id }).map((r) => r.id);
    const olderThan = (id: string) =>
      newestFirst(all.filter((e) => e.createdAt < at || (e.createdAt === at && e.id < id)));
    expect(before(all[91]!.id)).toEqual(olderThan(all[91]!.id));
    expect(before('00000000-0000-0000-0000-000000000000')).toEqual(olderThan('0'));
    expect(before('ffffffff-ffff-7fff-bfff-ffffffffffff')).toEqual(olderThan('g'));
  });

  it('pages events stored with a time off their id once each, in id order', () => {
    const db = open(join(tempDir(), 'berth.db'));
    const repo = new EventRepository(db.db);
    const all = stored(repo, 60, Date.now() - 10_000);
    // As older versions stored some: the time taken a millisecond after the id's.
    db.sqlite
      .prepare('update system_events set created_at = created_at + 1 where rowid % 3 = 0')
      .run();
    const seen: string[] = [];
    let cursor: { at: number; id: string } | undefined;
    for (let page = 0; page < 100; page++) {
      const rows = repo.page({}, 4, cursor);
      seen.push(...rows.map((r) => r.id));
      if (rows.length < 4) break;
      const last = rows[rows.length - 1]!;
      cursor = { at: last.createdAt, id: last.id };
    }
    expect(seen).toEqual(
      all
        .map((e) => e.id)
        .sort()
        .reverse()
    );
  });

  it('reads a page back along the id index, never sorting the events it passes', () => {
    const db = open(join(tempDir(), 'berth.db'));
    const repo = new EventRepository(db.db);
    // The plan SQLite makes for the query page() prepares (its parameters unbound).
    const plan = (filter: Parameters<EventRepository['page']>[0]) => {
      const prepare = db.sqlite.prepare.bind(db.sqlite);
      const detail: string[] = [];
      db.sqlite.prepare = (sql: string) => {
        const rows = prepare<unknown[], { detail: string }>(`explain query plan ${sql}`).all(
          ...new Array<null>(sql.split('?').length - 1).fill(null)
        );
        detail.push(...rows.map((r) => r.detail));
        return prepare(sql);
      };
      try {
        repo.page(filter, 51, { at: Date.now(), id: 'x' });
      } finally {
        db.sqlite.prepare = prepare;
      }
      return detail.join('\n');
    };
    for (const filter of [{}, { agentName: 'main' }, { source: 'rpc', since: 1, until: 2 }]) {
      const detail = plan(filter);
      expect(detail).toMatch(/(SCAN|SEARCH) e USING INDEX sqlite_autoindex_system_events_1/);
      expect(detail).not.toMatch(/TEMP B-TREE/);
    }
  });
});
