import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

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

describe('berth buildfile lint', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const write = (text: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-lint-'));
    dirs.push(dir);
    const file = join(dir, 'Dockerfile');
    writeFileSync(file, text);
    return file;
  };

  it('prints JSON diagnostics and exits 0 when there are only warnings', () => {
    const file = write('FROM alpine:3.20 AS Build\nUSER app\nHEALTHCHECK NONE\nCMD run\n');
    const run = berth('buildfile', 'lint', file, '--format', 'json');
    expect(run.status).toBe(0);
    const diagnostics = JSON.parse(run.stdout) as { rule: string; line: number }[];
    expect(diagnostics.map((d) => [d.rule, d.line])).toEqual([
      ['StageNameCasing', 1],
      ['JSONArgsRecommended', 4]
    ]);
    expect(diagnostics[0]).toMatchObject({
      severity: 'warning',
      message: "Stage name 'Build' should be lowercase",
      column: 1,
      endLine: 1,
      endColumn: 26,
      fix: { title: 'Lowercase the stage name' }
    });
  });

  it('prints one line per diagnostic and exits 1 on errors', () => {
    const file = write(
      'FROM alpine:3.20\nRUN --mount=type=volume x\nUSER 1000\nHEALTHCHECK NONE\n'
    );
    const run = berth('buildfile', 'lint', file);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(`${file}:2:5: error InvalidFlag: unsupported mount type "volume"\n`);
  });

  it('exits 1 when # check=error=true turns a warning into an error, 0 on a clean file', () => {
    expect(berth('buildfile', 'lint', write('# check=error=true\nFROM a\nENV A 1\n')).status).toBe(
      1
    );
    const clean = berth(
      'buildfile',
      'lint',
      write('FROM alpine:3.20\nUSER nobody\nHEALTHCHECK CMD ["true"]\nCMD ["true"]\n')
    );
    expect([clean.status, clean.stdout]).toEqual([0, '']);
  });

  it('exits 2 on a missing file or a bad --format', () => {
    expect(berth('buildfile', 'lint', join(FIXTURES, 'none', 'Dockerfile')).status).toBe(2);
    const bad = berth('buildfile', 'lint', join(FIXTURES, 'env', 'Dockerfile'), '--format', 'xml');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('berth buildfile lint FILE [--format json]');
  });
});
