import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';

/**
 * One Berth per database file. Two processes on one SQLite file both run, and then fail each
 * other's writes with "database is locked"; so the first takes `<database>.lock` (created with
 * O_EXCL, holding its pid, host and start time) and the next refuses to start, naming it. The
 * file is removed on shutdown and on any process exit; one left by a killed process (its pid no
 * longer alive on this host) is taken over.
 */

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
}

export interface DataLock {
  readonly file: string;
  /** Removes the lock file if it is still ours; safe to call more than once. */
  release(): void;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly file: string,
    readonly holder: LockHolder | null
  ) {
    super(
      holder
        ? `the database is in use by another Berth (pid ${holder.pid} on ${holder.host}, ` +
            `started ${holder.startedAt}); stop it first, or remove ${file} if that process ` +
            'is not Berth'
        : `the database is being taken by another process (${file}); try again`
    );
    this.name = 'DataDirLockedError';
  }
}

/** A lock file too young to hold its contents yet may be mid-write; older, it is junk. */
const UNREADABLE_GRACE_MS = 10_000;

export function acquireDataLock(databaseFile: string): DataLock {
  const file = `${databaseFile}.lock`;
  mkdirSync(dirname(file), { recursive: true });
  const mine: LockHolder = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString()
  };
  const content = JSON.stringify(mine);
  // A few rounds cover racing another starter over a stale file; each round either creates the
  // file, refuses, or has moved a stale one aside.
  for (let round = 0; round < 5; round++) {
    if (create(file, content)) return held(file, content);
    const seen = read(file);
    if (seen === undefined) continue; // gone meanwhile: try to create it again
    if (!isStale(file, seen.holder)) throw new DataDirLockedError(file, seen.holder);
    takeOver(file, seen.raw);
  }
  throw new DataDirLockedError(file, read(file)?.holder ?? null);
}

function create(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

function read(file: string): { raw: string; holder: LockHolder | null } | undefined {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return { raw, holder: parse(raw) };
}

function parse(raw: string): LockHolder | null {
  try {
    const value = JSON.parse(raw) as Partial<LockHolder>;
    if (Number.isInteger(value.pid) && typeof value.host === 'string')
      return { pid: value.pid!, host: value.host, startedAt: String(value.startedAt) };
  } catch {
    // not JSON: handled as unreadable below
  }
  return null;
}

function isStale(file: string, holder: LockHolder | null): boolean {
  if (!holder) {
    try {
      return Date.now() - statSync(file).mtimeMs > UNREADABLE_GRACE_MS;
    } catch {
      return false;
    }
  }
  // A pid on another host (a shared filesystem) cannot be checked: it counts as alive.
  if (holder.host !== hostname()) return false;
  // Our own pid: a container restarted with the same pid; this process holds nothing yet.
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    // EPERM: alive, under another user.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Moves a stale file aside by an atomic rename, then checks that what moved is what was judged
 * stale: if another starter replaced it in between, its file is put back (link fails rather
 * than overwrite, should a third have created one meanwhile).
 */
function takeOver(file: string, staleRaw: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    if (readFileSync(aside, 'utf8') !== staleRaw) linkSync(aside, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(aside);
  }
}

function held(file: string, content: string): DataLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    try {
      if (readFileSync(file, 'utf8') === content) unlinkSync(file);
    } catch {
      // already gone: nothing to release
    }
  };
  // Covers every exit but SIGKILL and a power cut; those leave a stale file, taken over later.
  process.on('exit', release);
  return { file, release };
}
