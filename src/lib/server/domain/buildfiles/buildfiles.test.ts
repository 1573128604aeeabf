import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { extract, pack } from 'tar-stream';
import { afterEach, describe, expect, it } from 'vitest';
import { workspacePathProblem } from '$lib/contracts/buildfiles';
import { unpackArchive } from './archive';
import { packContext } from './build-context';
import { BuildOutput } from './build-output';
import { WorkspaceFs } from './workspace-fs';

const dirs: string[] = [];
async function workspace(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'berth-ws-'));
  dirs.push(dir);
  const fs = new WorkspaceFs(dir);
  for (const [path, content] of Object.entries(files)) await fs.write(path, content);
  return fs;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function entriesOf(fs: WorkspaceFs, buildFile: string) {
  const reader = extract();
  (await packContext(fs, buildFile)).pipe(reader);
  const out: Record<string, string> = {};
  for await (const entry of reader) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    out[entry.header.name] =
      entry.header.type === 'file' ? Buffer.concat(chunks).toString() : entry.header.type;
  }
  return out;
}

describe('workspace paths', () => {
  it('refuses what could leave the workspace, as text', () => {
    expect(workspacePathProblem('a/b.txt')).toBeNull();
    expect(workspacePathProblem('../a')).toMatch(/leaves the workspace/);
    expect(workspacePathProblem('a/../../b')).toMatch(/leaves the workspace/);
    expect(workspacePathProblem('/etc/passwd')).toMatch(/absolute/);
    expect(workspacePathProblem('a\\..\\b')).toMatch(/backslash/);
    expect(workspacePathProblem('a\u0000b')).toMatch(/control character/);
    expect(workspacePathProblem('a//b')).toMatch(/empty/);
  });

  it('never writes or reads through a symbolic link, even one placed on disk', async () => {
    const fs = await workspace({ 'a.txt': 'A' });
    const outside = mkdtempSync(join(tmpdir(), 'berth-out-'));
    dirs.push(outside);
    symlinkSync(outside, join(fs.root, 'door'));
    await expect(fs.write('door/x.txt', 'x')).rejects.toThrow('door is a symbolic link');
    await expect(fs.read('door')).rejects.toThrow('door is a symbolic link');
    await expect(fs.move('a.txt', 'door/a.txt')).rejects.toThrow('door is a symbolic link');
  });

  it('caps a file at 1 MiB', async () => {
    const fs = await workspace({});
    await expect(fs.write('big', 'x'.repeat(1024 * 1024 + 1))).rejects.toThrow(
      /over 1048576 bytes/
    );
  });
});

async function tarOf(entries: Parameters<ReturnType<typeof pack>['entry']>[0][]) {
  const tar = pack();
  for (const e of entries) {
    if (e.type === 'file' || !e.type) tar.entry(e, 'data');
    else tar.entry(e);
  }
  tar.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of tar) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('archives', () => {
  it('unpacks a gzipped tar into a folder, a hard link as a copy of the earlier file', async () => {
    const fs = await workspace({});
    const archive = gzipSync(
      await tarOf([
        { name: './a/', type: 'directory' },
        { name: './a/file.txt' },
        { name: './a/same.txt', type: 'link', linkname: './a/file.txt' }
      ])
    );
    expect(await unpackArchive(fs, 'in', archive)).toEqual({ files: 2, folders: 1, links: 0 });
    expect(await fs.read('in/a/same.txt')).toBe('data');
    expect((await fs.tree()).map((e) => `${e.kind} ${e.path}`)).toEqual([
      'dir in',
      'dir in/a',
      'file in/a/file.txt',
      'file in/a/same.txt'
    ]);
  });

  it('refuses FIFOs and hard links to what the archive does not hold, writing nothing', async () => {
    const fs = await workspace({});
    await expect(
      unpackArchive(fs, '', await tarOf([{ name: 'ok.txt' }, { name: 'pipe', type: 'fifo' }]))
    ).rejects.toThrow('archive entry "pipe" is a FIFO: nothing was unpacked');
    await expect(
      unpackArchive(fs, '', await tarOf([{ name: 'h', type: 'link', linkname: 'etc/shadow' }]))
    ).rejects.toThrow(/"h" is a hard link to etc\/shadow, which the archive does not hold/);
    expect(await fs.tree()).toEqual([]);
  });
});

describe('the build context', () => {
  it('leaves out what the ignore file names but always sends the build file and ignore file', async () => {
    const fs = await workspace({
      Dockerfile: 'FROM scratch\n',
      '.dockerignore': '*.secret\nnode_modules\nDockerfile\n!keep.secret\n',
      'a.secret': 'no',
      'keep.secret': 'yes',
      'node_modules/x/index.js': 'no',
      'src/app.js': 'yes',
      empty: ''
    });
    expect(await entriesOf(fs, 'Dockerfile')).toEqual({
      '.dockerignore': '*.secret\nnode_modules\nDockerfile\n!keep.secret\n',
      Dockerfile: 'FROM scratch\n',
      empty: '',
      'keep.secret': 'yes',
      src: 'directory',
      'src/app.js': 'yes'
    });
  });
});

describe('build output', () => {
  it('marks steps with their line, splits torn stream chunks, keeps errors and the image id', () => {
    const lines = { 1: 2, 2: 4 } as Record<number, number>;
    const out = new BuildOutput((n) => lines[n]);
    const seen: string[] = [];
    out.listen((batch) =>
      seen.push(...batch.map((l) => `${l.seq} ${l.kind} ${l.line ?? ''} ${l.text}`))
    );
    out.push([
      { stream: 'Step 1/2 : FROM base\n' },
      { stream: ' ---> abc\nStep 2/2 : RUN x' },
      { stream: 'y\n' },
      { status: 'Downloading', progress: '[=>   ]', id: 'l1' },
      { aux: { ID: 'sha256:feed' } },
      { errorDetail: { message: 'boom' }, error: 'boom' }
    ]);
    out.end();
    expect(seen).toEqual([
      '0 step 2 Step 1/2 : FROM base',
      '1 output   ---> abc',
      '2 step 4 Step 2/2 : RUN xy',
      '3 error  boom'
    ]);
    expect([out.error, out.imageId, out.step?.n, out.step?.line]).toEqual([
      'boom',
      'sha256:feed',
      2,
      4
    ]);
  });

  it('caps the kept log and marks it truncated', () => {
    const out = new BuildOutput(() => undefined);
    const line = 'x'.repeat(1000);
    for (let i = 0; i < 1100; i++) out.push([{ stream: line + '\n' }]);
    expect(out.logTruncated).toBe(true);
    expect(Buffer.byteLength(out.log)).toBeLessThanOrEqual(1024 * 1024 + 100);
    expect(out.log.endsWith('[log truncated at 1 MiB]\n')).toBe(true);
  });
});
