import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from './client';

describe('openDatabase', () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-client-'));
  const opened: OpenedDatabase[] = [];
  afterAll(() => {
    for (const db of opened) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (name: string, options?: Parameters<typeof openDatabase>[2]) => {
    const db = openDatabase(join(dir, name), resolve('drizzle'), options);
    opened.push(db);
    return db.sqlite;
  };

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
});
