import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCheckpointer, type CheckpointTrouble } from './checkpointer';
import { TransactionRollbackError } from 'drizzle-orm';
import { openDatabase, WORKER_AT_CHANGES, type OpenedDatabase } from './client';
import { webhookMappings } from './schema';

describe('openDatabase', () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-client-'));
  const opened: OpenedDatabase[] = [];
  afterAll(() => {
    for (const db of opened) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const openWhole = (name: string, options?: Parameters<typeof openDatabase>[2]) => {
    const db = openDatabase(join(dir, name), resolve('drizzle'), options);
    opened.push(db);
    return db;
  };
  const open = (name: string, options?: Parameters<typeof openDatabase>[2]) =>
    openWhole(name, options).sqlite;

  // SQLite reports synchronous as a number: 1 NORMAL, 2 FULL.
  it('uses WAL with synchronous NORMAL by default', () => {
    const sqlite = open('default.db');
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(sqlite.pragma('synchronous', { simple: true })).toBe(1);
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('applies synchronous FULL when asked, NORMAL when asked', () => {
    expect(open('full.db', { synchronous: 'full' }).pragma('synchronous', { simple: true })).toBe(
      2
    );
    expect(
      open('normal.db', { synchronous: 'normal' }).pragma('synchronous', { simple: true })
    ).toBe(1);
  });

  // The file keeps console providers' API keys and GitHub signing secrets.
  it('makes the file and its WAL readable by their owner only, also when found looser', () => {
    const mode = (path: string) => statSync(path).mode & 0o777;
    const sqlite = open('owned.db');
    sqlite.exec('create table t (x integer); insert into t values (1)');
    expect(mode(join(dir, 'owned.db'))).toBe(0o600);
    expect(mode(join(dir, 'owned.db-wal'))).toBe(0o600);
    const loose = join(dir, 'loose.db');
    writeFileSync(loose, '');
    chmodSync(loose, 0o644);
    open('loose.db');
    expect(mode(loose)).toBe(0o600);
  });

  const until = async (check: () => boolean, ms = 5000) => {
    const deadline = Date.now() + ms;
    while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return check();
  };

  // A quiet connection checkpoints by itself; once it writes much, a worker copies the log
  // into the file and the connection would do so only past 10,000 pages.
  it('checkpoints in the connection while it writes little, on a worker once it writes much', async () => {
    const sqlite = open('checkpointed.db');
    const autocheckpoint = () => sqlite.pragma('wal_autocheckpoint', { simple: true });
    expect(autocheckpoint()).toBe(1000);
    expect(sqlite.pragma('temp_store', { simple: true })).toBe(2); // MEMORY
    sqlite.exec('create table blobs (b blob)');
    const insert = sqlite.prepare('insert into blobs values (randomblob(?))');
    const burst = (rows: number, bytes: number) =>
      sqlite.transaction(() => {
        for (let i = 0; i < rows; i++) insert.run(bytes);
      })();
    burst(WORKER_AT_CHANGES / 2, 10);
    await new Promise((r) => setTimeout(r, 2_200));
    expect(autocheckpoint()).toBe(1000);
    burst(WORKER_AT_CHANGES, 10);
    expect(await until(() => autocheckpoint() === 10_000)).toBe(true);
    const file = join(dir, 'checkpointed.db');
    const before = statSync(file).size;
    burst(2000, 4000);
    // About 8 MB of pages, far below the connection's own threshold: only the worker moves them.
    expect(await until(() => statSync(file).size > before + 7_000_000)).toBe(true);
    const [log] = sqlite.pragma('wal_checkpoint(PASSIVE)') as {
      log: number;
      checkpointed: number;
    }[];
    expect(log!.checkpointed).toBe(log!.log);
  });

  it('reports a checkpointer that cannot work, so the connection checkpoints again', async () => {
    const problems: CheckpointTrouble[] = [];
    const checkpointer = startCheckpointer(join(dir, 'missing', 'gone.db'), (p) =>
      problems.push(p)
    );
    expect(await until(() => problems.length > 0)).toBe(true);
    expect(problems[0]).toEqual({ failed: expect.any(String) as string });
    checkpointer.stop();
  });

  it("runs drizzle's transactions: commit, rollback on a throw or rollback(), nested in savepoints", () => {
    const { db, sqlite } = openWhole('tx.db');
    const names = () => db.select({ name: webhookMappings.name }).from(webhookMappings).all();
    const add = (name: string, via: Pick<typeof db, 'insert'> = db) =>
      via
        .insert(webhookMappings)
        .values({ name, match: {}, message: 'm', delivery: 'none', createdAt: 1, updatedAt: 1 })
        .run();
    expect(db.transaction((tx) => (add('a', tx), 'done'))).toBe('done');
    expect(() =>
      db.transaction(() => {
        add('b');
        throw new Error('no');
      })
    ).toThrow('no');
    expect(() => db.transaction((tx) => (add('c', tx), tx.rollback()))).toThrow(
      TransactionRollbackError
    );
    db.transaction(
      () => {
        add('d');
        expect(sqlite.inTransaction).toBe(true);
        // The inner one fails alone: its savepoint is rolled back, the outer work commits.
        expect(() =>
          db.transaction(() => {
            add('e');
            throw new Error('inner');
          })
        ).toThrow('inner');
        add('f');
      },
      { behavior: 'immediate' }
    );
    expect(sqlite.inTransaction).toBe(false);
    expect(names().map((r) => r.name)).toEqual(['a', 'd', 'f']);
  });

  it('holds after-commit work until the outermost commit, and drops what rolls back', () => {
    const { db, sqlite, afterCommit } = openWhole('after.db');
    sqlite.exec(`create table p (id integer primary key);
      create table c (p integer references p(id) deferrable initially deferred)`);
    const ran: string[] = [];
    const later = (name: string) => afterCommit.run(() => ran.push(name));
    later('outside');
    expect(ran).toEqual(['outside']);
    db.transaction(() => {
      later('a');
      expect(() =>
        db.transaction(() => {
          later('inner, rolled back');
          throw new Error('inner');
        })
      ).toThrow('inner');
      db.transaction(() => later('inner, kept'));
      expect(ran).toEqual(['outside']);
      later('b');
    });
    expect(ran).toEqual(['outside', 'a', 'inner, kept', 'b']);
    expect(() =>
      db.transaction(() => {
        later('thrown');
        throw new Error('no');
      })
    ).toThrow('no');
    // The work succeeds but SQLite refuses the commit (a deferred constraint): nothing runs.
    expect(() =>
      db.transaction(() => {
        later('refused');
        sqlite.prepare('insert into c (p) values (99)').run();
      })
    ).toThrow(/FOREIGN KEY/);
    expect(sqlite.inTransaction).toBe(false);
    // One that throws does not stop the rest; its error comes after them.
    expect(() =>
      db.transaction(() => {
        afterCommit.run(() => {
          throw new Error('listener');
        });
        later('after a throw');
      })
    ).toThrow('listener');
    expect(ran).toEqual(['outside', 'a', 'inner, kept', 'b', 'after a throw']);
    // Given a reporter (the app logs), such an error is reported instead: the rows are committed.
    const reported: unknown[] = [];
    const logged = openWhole('after-logged.db', { onAfterCommitError: (e) => reported.push(e) });
    expect(
      logged.db.transaction(() => {
        logged.afterCommit.run(() => {
          throw new Error('listener');
        });
        return 'committed';
      })
    ).toBe('committed');
    expect(reported).toEqual([new Error('listener')]);
    // Outside a transaction too: the write it follows has committed.
    logged.afterCommit.run(() => {
      throw new Error('at once');
    });
    expect(reported).toEqual([new Error('listener'), new Error('at once')]);
  });
});
