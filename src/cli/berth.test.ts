import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The real command, run as a child process by the Node running the tests (Node 24).
const ROOT = join(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'tests/fixtures/buildfile');
const berth = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin/berth.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8'
  });

describe('berth buildfile dump', () => {
  it('prints the parse in BuildKit’s result format and exits 0', () => {
    for (const name of ['env', 'heredocs', 'onbuild']) {
      const run = berth('buildfile', 'dump', join(FIXTURES, name, 'Dockerfile'));
      expect(run.status).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(readFileSync(join(FIXTURES, name, 'result'), 'utf8'));
    }
  });

  it('exits 1 on a file BuildKit’s parser refuses, naming the line', () => {
    const file = join(FIXTURES, 'refused-env-no-value', 'Dockerfile');
    const run = berth('buildfile', 'dump', file);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`${file}:2:1: ENV must have two arguments\n`);
  });

  it('exits 2 on a missing file and on a bad command line', () => {
    const missing = berth('buildfile', 'dump', join(FIXTURES, 'no-such-case', 'Dockerfile'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no such file');
    const usage = berth('buildfile');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('berth buildfile dump FILE');
    expect(berth('buildfile', 'dump').status).toBe(2);
  });
});
