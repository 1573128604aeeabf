import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pack, type Header } from 'tar-stream';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildDetail, BuildLine, BuildSummary } from '../../src/lib/contracts/buildfiles';
import { login, startBerth, trpc, type Berth } from './helpers/berth';
import { ADMIN_ENV, signInAs, startWithAdmin } from './helpers/console';
import { BASE_IMAGE, removeLabelled } from './helpers/engine';
import { connectSocket } from './helpers/sockets';

/** Workspaces and builds through a started Berth, on the real engine. */
const runId = `r${Date.now().toString(36)}b`;
const label = `berth.test=${runId}`;
let berth: Berth;
let admin: string;
let operator: string;
let viewer: string;
let workspace: string;
// Our own folder: the restart case needs the database to outlive the first process.
const dataDir = mkdtempSync(join(tmpdir(), 'berth-bf-'));

const docker = (...args: string[]) =>
  execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const containersLabelled = () => docker('ps', '-aq', '--filter', `label=${label}`);

beforeAll(async () => {
  ({ berth, admin } = await startWithAdmin({ dataDir }));
  operator = await signInAs(berth, admin, 'operator');
  viewer = await signInAs(berth, admin, 'viewer');
  const created = await trpc(berth, operator, 'buildfiles.workspaces.create', { name: 'studio' });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  workspace = (created.body.result!.data as { id: string }).id;
}, 60_000);

afterAll(async () => {
  removeLabelled(label);
  await berth?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function write(path: string, content: string) {
  const res = await trpc(berth, operator, 'buildfiles.files.write', { workspace, path, content });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function tarOf(entries: (Partial<Header> & { name: string; body?: string })[]) {
  const tar = pack();
  for (const { body, ...header } of entries) tar.entry(header, body ?? '');
  tar.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of tar) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('base64');
}

async function build(input: Record<string, unknown>, cookie = operator) {
  return trpc(berth, cookie, 'buildfiles.builds.start', { workspace, ...input });
}

async function waitEnd(id: string, ms = 30_000): Promise<BuildDetail> {
  const until = Date.now() + ms;
  for (;;) {
    const res = await trpc(berth, viewer, 'buildfiles.builds.get', { id }, 'query');
    const detail = res.body.result!.data as BuildDetail;
    if (detail.status !== 'running' || Date.now() > until) return detail;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function waitNoContainer(ms = 15_000): Promise<string> {
  const until = Date.now() + ms;
  let left = containersLabelled();
  while (left && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 250));
    left = containersLabelled();
  }
  return left;
}

describe('workspace paths', () => {
  it('refuses .., absolute paths and backslashes before they reach the disk', async () => {
    for (const path of ['../escape.txt', '/etc/escape', 'a/../../b', 'a\\b', 'a/./b']) {
      const res = await trpc(berth, operator, 'buildfiles.files.write', {
        workspace,
        path,
        content: 'x'
      });
      expect(res.status, path).toBe(400);
    }
  });

  it('refuses an archive with a ../ entry, naming it, and unpacks nothing', async () => {
    const res = await trpc(berth, operator, 'buildfiles.files.uploadArchive', {
      workspace,
      base64: await tarOf([
        { name: 'fine.txt', body: 'ok' },
        { name: '../evil.txt', body: 'pwned' }
      ])
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(
      'archive entry "../evil.txt" leaves the workspace (..): nothing was unpacked'
    );
    const tree = await trpc(berth, viewer, 'buildfiles.files.tree', { workspace }, 'query');
    expect((tree.body.result!.data as { path: string }[]).map((e) => e.path)).not.toContain(
      'fine.txt'
    );
  });

  it('refuses symbolic links pointing outside, absolute entries and device files', async () => {
    const cases: [Partial<Header> & { name: string }, string][] = [
      [{ name: 'link', type: 'symlink', linkname: '../../etc/passwd' }, 'pointing outside'],
      [{ name: 'abs-link', type: 'symlink', linkname: '/etc/passwd' }, 'absolute path'],
      [{ name: '/etc/cron.d/x' }, 'absolute path'],
      [{ name: 'dev', type: 'character-device', devmajor: 1, devminor: 3 }, 'device file']
    ];
    for (const [header, why] of cases) {
      const res = await trpc(berth, operator, 'buildfiles.files.uploadArchive', {
        workspace,
        base64: await tarOf([header])
      });
      expect(res.status, header.name).toBe(400);
      expect(res.body.error?.message).toContain(`"${header.name}"`);
      expect(res.body.error?.message).toContain(why);
    }
  });

  it('unpacks a good archive and never reads through a link inside it', async () => {
    const res = await trpc(berth, operator, 'buildfiles.files.uploadArchive', {
      workspace,
      folder: 'unpacked',
      base64: await tarOf([
        { name: 'dir/', type: 'directory' },
        { name: 'dir/a.txt', body: 'A' },
        { name: 'dir/alias', type: 'symlink', linkname: 'a.txt' }
      ])
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result?.data).toEqual({ files: 1, folders: 1, links: 1 });
    const read = await trpc(
      berth,
      viewer,
      'buildfiles.files.read',
      { workspace, path: 'unpacked/dir/alias' },
      'query'
    );
    expect(read.status).toBe(400);
    expect(read.body.error?.message).toContain('is a symbolic link');
    const gone = await trpc(berth, operator, 'buildfiles.files.remove', {
      workspace,
      path: 'unpacked'
    });
    expect(gone.status).toBe(200);
  });
});

describe('builds on the engine', () => {
  it('refuses a viewer (403) and lets it read the history', async () => {
    await write('Dockerfile', `FROM ${BASE_IMAGE}\n`);
    const res = await build({ tag: `berth-test/bf-${runId}:viewer` }, viewer);
    expect(res.status).toBe(403);
    const list = await trpc(berth, viewer, 'buildfiles.builds.list', { workspace }, 'query');
    expect(list.status).toBe(200);
  });

  it('builds a multi-stage target with a build arg, streamed in order over socket.io', async () => {
    await write(
      'multi/Build.file',
      [
        `ARG BASE=${BASE_IMAGE}`,
        'FROM ${BASE} AS base',
        `LABEL ${label}`,
        'ARG GREETING=hi',
        'RUN echo "$GREETING" > /greeting',
        'FROM base AS final',
        'RUN cat /greeting',
        'FROM base AS never',
        'RUN exit 9',
        ''
      ].join('\n')
    );
    const socket: Socket = await connectSocket(berth, operator);
    try {
      const tag = `berth-test/bf-${runId}:multi`;
      const res = await build({
        tag,
        buildFile: 'multi/Build.file',
        target: 'final',
        buildArgs: { GREETING: 'hello-from-arg' }
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { id } = res.body.result!.data as BuildSummary;
      const lines: BuildLine[] = [];
      const ended = new Promise<BuildSummary>((done) =>
        socket.on('build.ended', (p: { build: BuildSummary }) => done(p.build))
      );
      socket.on('build.output', (p: { lines: BuildLine[] }) => lines.push(...p.lines));
      expect(await socket.emitWithAck('room.join', `build.output:${id}`)).toEqual({ ok: true });
      const summary = await ended;
      expect(summary.status, summary.error ?? '').toBe('succeeded');
      expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i));
      const steps = lines.filter((l) => l.kind === 'step');
      // Step 8 is the engine's: the `labels` option applied as a LABEL, on no line of the file.
      expect(steps.map((s) => s.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(steps[7]?.line).toBeUndefined();
      expect(steps[4]?.line).toBe(5);
      expect(steps[4]?.text).toMatch(/^Step 5\/\d+ : RUN/);
      expect(lines.some((l) => l.text.includes('hello-from-arg'))).toBe(true);
      const image = JSON.parse(docker('image', 'inspect', tag)) as {
        Id: string;
        Config: { Labels: Record<string, string> };
      }[];
      expect(image[0]!.Config.Labels['berth.test']).toBe(runId);
      expect(image[0]!.Config.Labels['berth.build']).toBe(id);
      expect(summary.imageId && image[0]!.Id.includes(summary.imageId)).toBe(true);
      expect(docker('run', '--rm', tag, 'cat', '/greeting')).toBe('hello-from-arg');
    } finally {
      socket.close();
    }
  });

  it('names the failing step and its line and leaves no container behind', async () => {
    await write(
      'Dockerfile',
      `# a comment\nFROM ${BASE_IMAGE}\nLABEL ${label}\nRUN true\n\nRUN echo about to fail && \\\n  exit 3\n`
    );
    const res = await build({ tag: `berth-test/bf-${runId}:fail` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const detail = await waitEnd((res.body.result!.data as BuildSummary).id);
    expect(detail.status).toBe('failed');
    expect(detail.failedStep).toBe(4);
    expect(detail.failedLine).toBe(6);
    expect(detail.error).toMatch(
      /^Step 4\/\d+ : RUN echo about to fail .*\(line 6\): .*non-zero code: 3/
    );
    expect(detail.log).toContain('about to fail');
    expect(await waitNoContainer()).toBe('');
  });

  it('keeps what the ignore file names out of the context, and says so in the preview', async () => {
    await write(
      'ctx/Dockerfile',
      `FROM ${BASE_IMAGE}\nLABEL ${label}\nCOPY . /ctx\nRUN test ! -e /ctx/secret.txt && test ! -e /ctx/ctx/secret.txt && test -e /ctx/ctx/kept.txt\n`
    );
    await write('.dockerignore', 'secret.txt\n**/secret.txt\nctx/Dockerfile\n');
    await write('ctx/secret.txt', 'do not send');
    await write('ctx/kept.txt', 'send');
    await write('secret.txt', 'do not send either');
    const preview = await trpc(
      berth,
      viewer,
      'buildfiles.files.contextPreview',
      { workspace, buildFile: 'ctx/Dockerfile' },
      'query'
    );
    const { entries } = preview.body.result!.data as {
      entries: { path: string; ignored: boolean }[];
    };
    const ignored = (p: string) => entries.find((e) => e.path === p)?.ignored;
    // The build file itself is always sent, as the docker CLI does.
    expect([
      ignored('secret.txt'),
      ignored('ctx/secret.txt'),
      ignored('ctx/kept.txt'),
      ignored('ctx/Dockerfile')
    ]).toEqual([true, true, false, false]);
    const res = await build({ tag: `berth-test/bf-${runId}:ignore`, buildFile: 'ctx/Dockerfile' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const detail = await waitEnd((res.body.result!.data as BuildSummary).id);
    expect(detail.status, detail.log).toBe('succeeded');
  });

  it('cancels a running build: cancelled in the history, no container left', async () => {
    await write('slow/Dockerfile', `FROM ${BASE_IMAGE}\nLABEL ${label}\nRUN sleep 30\n`);
    const socket: Socket = await connectSocket(berth, operator);
    try {
      const res = await build({
        tag: `berth-test/bf-${runId}:slow`,
        buildFile: 'slow/Dockerfile',
        noCache: true
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { id } = res.body.result!.data as BuildSummary;
      const running = new Promise<void>((done) =>
        socket.on('build.output', (p: { lines: BuildLine[] }) => {
          if (p.lines.some((l) => l.text.includes('Running in'))) done();
        })
      );
      expect(await socket.emitWithAck('room.join', `build.output:${id}`)).toEqual({ ok: true });
      await running;
      expect(containersLabelled()).not.toBe('');
      const forged = await trpc(berth, viewer, 'buildfiles.builds.cancel', { id });
      expect(forged.status).toBe(403);
      const cancel = await trpc(berth, operator, 'buildfiles.builds.cancel', { id });
      expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
      expect((cancel.body.result!.data as BuildSummary).status).toBe('cancelled');
      expect(await waitNoContainer()).toBe('');
      expect((await waitEnd(id)).status).toBe('cancelled');
    } finally {
      socket.close();
    }
  }, 30_000);

  it('marks a build left running by a stop as failed at the next start', async () => {
    const res = await build({
      tag: `berth-test/bf-${runId}:slow2`,
      buildFile: 'slow/Dockerfile',
      noCache: true
    });
    const { id } = res.body.result!.data as BuildSummary;
    await berth.stop();
    berth = await startBerth({ dataDir, env: ADMIN_ENV });
    admin = await login(berth);
    const detail = await trpc(berth, admin, 'buildfiles.builds.get', { id }, 'query');
    expect(detail.body.result?.data).toMatchObject({
      status: 'failed',
      error: 'interrupted by restart'
    });
    expect(await waitNoContainer()).toBe('');
  }, 30_000);
});
