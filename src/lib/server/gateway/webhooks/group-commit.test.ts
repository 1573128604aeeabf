import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';

function setup() {
  const db = new Database(':memory:');
  db.exec('create table t (x integer primary key)');
  const commits: number[] = [];
  const atomically = <T>(work: () => T): T => {
    const outer = !db.inTransaction;
    const result = db.transaction(work).immediate();
    if (outer) commits.push(Date.now());
    return result;
  };
  return { db, commits, group: new GroupCommit(atomically, 3) };
}

describe('GroupCommit', () => {
  it('commits work from one event-loop turn together, in batches of at most maxBatch', async () => {
    const { db, commits, group } = setup();
    const insert = (x: number) => () => db.prepare('insert into t values (?)').run(x).changes;
    const results = await Promise.all([1, 2, 3, 4, 5].map((x) => group.run(insert(x))));
    expect(results).toEqual([1, 1, 1, 1, 1]);
    expect(commits).toHaveLength(2);
    expect((db.prepare('select count(*) n from t').get() as { n: number }).n).toBe(5);
  });

  it('a failing item rejects alone; the others commit', async () => {
    const { db, group } = setup();
    const ok = group.run(() => db.prepare('insert into t values (1)').run());
    const bad = group.run(() => {
      throw new Error('no');
    });
    const dup = group.run(() => db.prepare('insert into t values (1)').run());
    await expect(ok).resolves.toBeTruthy();
    await expect(bad).rejects.toThrow('no');
    await expect(dup).rejects.toThrow(/UNIQUE/);
    expect(db.prepare('select x from t').all()).toEqual([{ x: 1 }]);
  });

  it('settles only after the commit', async () => {
    const { db, group } = setup();
    const done = group.run(() => db.inTransaction);
    expect(db.inTransaction).toBe(false);
    await expect(done).resolves.toBe(true);
    expect(db.inTransaction).toBe(false);
  });

  it('cuts a slow batch at its time budget and commits the rest in the next turn, in order', async () => {
    const db = new Database(':memory:');
    db.exec('create table t (x integer primary key)');
    const commits: number[][] = [];
    let current: number[] = [];
    const atomically = <T>(work: () => T): T => {
      current = [];
      const result = db.transaction(work).immediate();
      commits.push(current);
      return result;
    };
    const group = new GroupCommit(atomically, 256, 5);
    const slow = (x: number) => () => {
      const until = performance.now() + 2;
      while (performance.now() < until); // a heavy item, about 2 ms
      current.push(x);
      return db.prepare('insert into t values (?)').run(x).changes;
    };
    const xs = Array.from({ length: 10 }, (_, i) => i);
    expect(await Promise.all(xs.map((x) => group.run(slow(x))))).toEqual(xs.map(() => 1));
    // 5 ms lets at most 3 items of 2 ms in (the budget is checked before each one).
    expect(commits.length).toBeGreaterThanOrEqual(4);
    expect(commits.every((c) => c.length >= 1 && c.length <= 3)).toBe(true);
    expect(commits.flat()).toEqual(xs);
  });
});
