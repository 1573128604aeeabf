import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Runs `body` in a fresh Node with `log` from createLogger; its stdout lines, parsed. */
function linesOf(body: string): Record<string, unknown>[] {
  const url = new URL('./logger.ts', import.meta.url).href;
  const script = `import(${JSON.stringify(url)}).then(({ createLogger }) => {
    const log = createLogger('info');
    ${body}
  });`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8'
  });
  expect(run.stderr).not.toMatch(/Error/);
  return run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('createLogger', () => {
  // As Berth's shutdown does: a batch on the thread pool is written before the next ones.
  it('writes every line, in order, across batches, once flushed', () => {
    const lines = linesOf(`for (let i = 0; i < 3000; i++) log.info({ i }, 'line');
    log.flush(() => process.exit(0));`);
    expect(lines.map((l) => l.i)).toEqual(Array.from({ length: 3000 }, (_, i) => i));
  });

  // Killed outright, the process flushes nothing: the line is out because its batch timed out.
  it('writes a line that waits for its batch within 200 ms while the process runs', () => {
    const lines = linesOf(`log.info({ i: 1 }, 'alone');
    setTimeout(() => process.kill(process.pid, 'SIGKILL'), 500);`);
    expect(lines.map((l) => l.msg)).toEqual(['alone']);
  });

  it('redacts credentials', () => {
    const [line] = linesOf(`log.info({ req: { headers: { authorization: 'Bearer s3cret' } } }, 'x');
    process.exit(0);`);
    expect(JSON.stringify(line)).not.toContain('s3cret');
  });
});
