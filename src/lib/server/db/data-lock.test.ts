import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataLock, DataDirLockedError } from './data-lock';

/** A real other process: alive until killed. */
function otherProcess(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((done) => child.once('exit', done));
  return child.pid!;
}

describe('acquireDataLock', () => {
  let dir: string;
  let db: string;
  let lockFile: string;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-lock-'));
    db = join(dir, 'nested', 'berth.db');
    lockFile = `${db}.lock`;
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const holderOf = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { pid: number };

  it('creates the lock file with our pid and host, and removes it on release', () => {
    const lock = acquireDataLock(db);
    expect(lock.file).toBe(lockFile);
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({
      pid: process.pid,
      host: hostname()
    });
    lock.release();
    expect(existsSync(lockFile)).toBe(false);
    lock.release();
  });

  it('refuses while a live process holds it, naming its pid, and leaves its file alone', async () => {
    const child = otherProcess();
    children.push(child);
    await new Promise((done) => child.once('spawn', done));
    acquireDataLock(db).release();
    const theirs = JSON.stringify({ pid: child.pid, host: hostname(), startedAt: 'then' });
    writeFileSync(lockFile, theirs);
    let caught: unknown;
    try {
      acquireDataLock(db);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(DataDirLockedError);
    expect((caught as Error).message).toContain(`pid ${child.pid}`);
    expect((caught as Error).message).toContain(lockFile);
    expect(readFileSync(lockFile, 'utf8')).toBe(theirs);
  });

  it('takes over a lock whose process is gone', async () => {
    acquireDataLock(db).release();
    const pid = await deadPid();
    writeFileSync(lockFile, JSON.stringify({ pid, host: hostname(), startedAt: 'then' }));
    const lock = acquireDataLock(db);
    expect(holderOf(lockFile).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('counts a pid on another host as alive', () => {
    acquireDataLock(db).release();
    writeFileSync(lockFile, JSON.stringify({ pid: 1, host: 'elsewhere', startedAt: 'then' }));
    expect(() => acquireDataLock(db)).toThrow(/pid 1 on elsewhere/);
  });

  it('waits out an unreadable lock while it may be mid-write, then takes it over', () => {
    acquireDataLock(db).release();
    writeFileSync(lockFile, '');
    expect(() => acquireDataLock(db)).toThrow(DataDirLockedError);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockFile, old, old);
    const lock = acquireDataLock(db);
    expect(holderOf(lockFile).pid).toBe(process.pid);
    lock.release();
  });

  it('release leaves a lock file that another process has since taken', () => {
    const lock = acquireDataLock(db);
    const theirs = JSON.stringify({ pid: 1, host: 'elsewhere', startedAt: 'later' });
    writeFileSync(lockFile, theirs);
    lock.release();
    expect(readFileSync(lockFile, 'utf8')).toBe(theirs);
  });
});
