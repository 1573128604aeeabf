import { createReadStream } from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pack, type Pack } from 'tar-stream';
import { IGNORE_FILE, type ContextEntry, type FileEntry } from '$lib/contracts/buildfiles';
import { parseIgnoreFile } from '$lib/buildfile/lint/ignore';
import type { WorkspaceFs } from './workspace-fs';

/**
 * What goes to the engine as the build context: the workspace minus what its `.dockerignore`
 * excludes (moby's pattern semantics). As the docker CLI does, the build file and the ignore
 * file themselves are always sent, whatever the patterns say.
 */
export async function contextEntries(
  fs: WorkspaceFs,
  buildFile: string
): Promise<{ entries: (ContextEntry & { kind: FileEntry['kind'] })[]; hasIgnoreFile: boolean }> {
  const tree = await fs.tree();
  const hasIgnoreFile = tree.some((e) => e.path === IGNORE_FILE && e.kind === 'file');
  const matcher = parseIgnoreFile(hasIgnoreFile ? await fs.read(IGNORE_FILE) : '');
  const entries = tree.map((e) => ({
    path: e.path,
    kind: e.kind,
    size: e.size,
    ignored: e.path !== buildFile && e.path !== IGNORE_FILE && matcher.ignores(e.path)
  }));
  return { entries, hasIgnoreFile };
}

/**
 * The context as a tar stream, written entry by entry as the engine reads it: files are piped
 * from disk, so a context is never held whole in memory. Links go as links (never followed).
 */
export async function packContext(fs: WorkspaceFs, buildFile: string): Promise<Readable> {
  const { entries } = await contextEntries(fs, buildFile);
  const tar = pack();
  const mtime = new Date();
  void (async () => {
    try {
      for (const e of entries) {
        if (e.ignored || tar.destroyed) continue;
        const abs = join(fs.root, e.path);
        if (e.kind === 'dir')
          await add(tar, { name: e.path, type: 'directory', mode: 0o755, mtime });
        else if (e.kind === 'link')
          await add(tar, { name: e.path, type: 'symlink', linkname: await readlink(abs), mtime });
        else {
          // The size is read again: the file may have changed since the walk.
          const { size } = await lstat(abs);
          if (size === 0) {
            await add(
              tar,
              { name: e.path, type: 'file', size: 0, mode: 0o644, mtime },
              Buffer.alloc(0)
            );
            continue;
          }
          let sink!: ReturnType<Pack['entry']>;
          const entryDone = new Promise<void>((done, fail) => {
            sink = tar.entry({ name: e.path, type: 'file', size, mode: 0o644, mtime }, (err) =>
              err ? fail(err) : done()
            );
          });
          // Written as the engine reads: the pack's backpressure reaches the file read.
          for await (const chunk of createReadStream(abs, { start: 0, end: size - 1 })) {
            if (!sink.write(chunk as Buffer))
              await new Promise<void>((r) => sink.once('drain', () => r()));
          }
          sink.end(null);
          await entryDone;
        }
      }
      tar.finalize();
    } catch (err) {
      tar.destroy(err as Error);
    }
  })();
  // A Node stream for the engine request; destroying it stops the packing.
  const out = Readable.from(tar);
  out.once('close', () => tar.destroy());
  return out;
}

function add(tar: Pack, header: Parameters<Pack['entry']>[0], body?: Buffer): Promise<void> {
  return new Promise((done, fail) => {
    const callback = (err?: Error | null) => (err ? fail(err) : done());
    if (body) tar.entry(header, body, callback);
    else tar.entry(header, callback);
  });
}
