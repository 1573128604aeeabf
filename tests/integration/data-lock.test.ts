import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startBerth } from './helpers/berth';

describe('one Berth per data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-it-lock-'));
  const lockFile = join(dataDir, 'berth.db.lock');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const holder = () => JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number };

  it('a second Berth on the same data directory exits non-zero, naming the holder', async () => {
    const first = await startBerth({ dataDir });
    try {
      expect(holder().pid).toBe(first.proc.pid);
      const second = await startBerth({ dataDir, expectExit: true });
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`pid ${first.proc.pid}`);
      expect(second.output()).toContain(lockFile);
      // The first is untouched: it still answers and still holds the lock.
      expect((await fetch(`${first.url}/readyz`)).status).not.toBe(503);
      expect(holder().pid).toBe(first.proc.pid);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    expect(existsSync(lockFile)).toBe(false);
  });

  it('takes over a lock left by a process that is gone, and one left by a killed Berth', async () => {
    const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await new Promise((done) => gone.once('exit', done));
    writeFileSync(
      lockFile,
      JSON.stringify({ pid: gone.pid, host: hostname(), startedAt: '2020-01-01T00:00:00Z' })
    );
    const first = await startBerth({ dataDir });
    expect(holder().pid).toBe(first.proc.pid);
    // SIGKILL skips every exit handler: the file stays behind with a dead pid.
    await first.stop('SIGKILL');
    expect(holder().pid).toBe(first.proc.pid);
    const second = await startBerth({ dataDir });
    try {
      expect(holder().pid).toBe(second.proc.pid);
    } finally {
      await second.stop();
    }
  });
});
