import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Berth } from './helpers/berth';
import { signInAs, startWithAdmin } from './helpers/console';
import { BASE_IMAGE, removeLabelled } from './helpers/engine';

/** The console's log download (/containers/<id>/logs): demultiplexed text, role-checked. */
const runId = `r${Date.now().toString(36)}d`;
const label = `berth.test=${runId}`;
const NAME = `berth-t-${runId}`;
let berth: Berth;
let viewer: string;

const docker = (...args: string[]) => execFileSync('docker', args).toString().trim();

beforeAll(async () => {
  docker(
    'run',
    '-d',
    '--name',
    NAME,
    '--label',
    label,
    BASE_IMAGE,
    'sh',
    '-c',
    // The engine copies stdout and stderr on separate paths: lines written at the same moment
    // may be stored in either order, so these are spaced apart.
    'echo out1; sleep 0.3; echo err1 >&2; sleep 0.3; echo out2; sleep 0.3; seq 1 20000'
  );
  docker('wait', NAME);
  let admin: string;
  ({ berth, admin } = await startWithAdmin());
  viewer = await signInAs(berth, admin, 'viewer');
}, 60_000);

afterAll(async () => {
  removeLabelled(label);
  await berth?.stop();
});

const download = (path: string, cookie?: string) =>
  fetch(`${berth.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

describe('container log download', () => {
  it('streams every line the engine holds as text, stdout and stderr marked, in order', async () => {
    const res = await download(`/containers/${NAME}/logs?engine=local`, viewer);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${NAME}-logs.txt"`);
    const lines = (await res.text()).split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(3 + 20000 + 1);
    const ts = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z /;
    expect(lines.slice(0, 3).map((l) => ts.test(l))).toEqual([true, true, true]);
    expect(lines.slice(0, 4).map((l) => l.replace(ts, ''))).toEqual([
      'stdout out1',
      'stderr err1',
      'stdout out2',
      'stdout 1'
    ]);
    expect(lines.at(-2)).toMatch(/ stdout 20000$/);
  });

  it('leaves the times out on request', async () => {
    const res = await download(`/containers/${NAME}/logs?engine=local&timestamps=0`, viewer);
    expect((await res.text()).startsWith('stdout out1\nstderr err1\nstdout out2\nstdout 1\n')).toBe(
      true
    );
  });

  it('needs a signed-in user, a valid name and an existing container', async () => {
    const anonymous = await download(`/containers/${NAME}/logs?engine=local`);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toMatch(/^\/login/);
    const bad = await download(`/containers/${encodeURIComponent('a?b')}/logs`, viewer);
    expect(bad.status).toBe(400);
    const missing = await download(`/containers/${NAME}-gone/logs`, viewer);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(`no such container ${NAME}-gone`);
  });
});
