import { lstat, symlink } from 'node:fs/promises';
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import {
  WORKSPACE_MAX_BYTES,
  WORKSPACE_MAX_ENTRIES,
  workspacePathProblem
} from '$lib/contracts/buildfiles';
import { conflict, invalid } from '../../errors';
import type { WorkspaceFs } from './workspace-fs';

type Planned =
  | { kind: 'dir'; path: string }
  | { kind: 'file'; path: string; data: Buffer }
  | { kind: 'link'; path: string; target: string };

/**
 * Unpacks a tar (or gzipped tar) archive into a workspace folder. Every entry is checked before
 * anything is written, and one bad entry refuses the whole archive, naming it: absolute paths,
 * `..`, links pointing outside the workspace, device files and FIFOs. Hard links become copies
 * of the file they name (which must come earlier in the archive); symbolic links stay links,
 * relative and inside.
 */
export async function unpackArchive(
  fs: WorkspaceFs,
  folder: string,
  archive: Buffer
): Promise<{ files: number; folders: number; links: number }> {
  const plan = await planEntries(folder, decompress(archive));
  const bytes = plan.reduce((n, p) => n + (p.kind === 'file' ? p.data.length : 0), 0);
  const usage = await fs.usage();
  if (usage.entries + plan.length > WORKSPACE_MAX_ENTRIES)
    throw invalid(`the archive would take the workspace over ${WORKSPACE_MAX_ENTRIES} entries`);
  if (usage.bytes + bytes > WORKSPACE_MAX_BYTES)
    throw invalid(
      `the archive would take the workspace over ${WORKSPACE_MAX_BYTES / 1024 / 1024} MiB`
    );
  const counts = { files: 0, folders: 0, links: 0 };
  for (const p of plan) {
    if (p.kind === 'dir') {
      await fs.mkdirs(p.path);
      counts.folders++;
    } else if (p.kind === 'file') {
      await fs.write(p.path, p.data);
      counts.files++;
    } else {
      const at = await fs.resolve(p.path, { allowLinkLeaf: true });
      if (await lstat(at).catch(() => null)) throw conflict(`${p.path} already exists`);
      await fs.mkdirs(posix.dirname(p.path));
      await symlink(p.target, at);
      counts.links++;
    }
  }
  return counts;
}

function decompress(archive: Buffer): Buffer {
  if (archive[0] !== 0x1f || archive[1] !== 0x8b) return archive;
  try {
    return gunzipSync(archive, { maxOutputLength: WORKSPACE_MAX_BYTES + 1024 * 1024 });
  } catch (err) {
    throw invalid(`the archive cannot be decompressed: ${(err as Error).message}`);
  }
}

async function planEntries(folder: string, tar: Buffer): Promise<Planned[]> {
  const plan: Planned[] = [];
  const files = new Map<string, Buffer>();
  const reader = extract();
  const done = (async () => {
    for await (const entry of reader) {
      const header = entry.header;
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      const planned = planOne(folder, header, Buffer.concat(chunks), files);
      if (!planned) continue;
      if (planned.kind === 'file') files.set(planned.path, planned.data);
      plan.push(planned);
    }
  })();
  Readable.from([tar]).pipe(reader);
  try {
    await done;
  } catch (err) {
    if (err instanceof Error && err.name === 'DomainError') throw err;
    throw invalid(`the archive cannot be read as tar: ${(err as Error).message}`);
  }
  return plan;
}

function planOne(
  folder: string,
  header: Header,
  data: Buffer,
  files: Map<string, Buffer>
): Planned | null {
  const name = header.name;
  const refuse = (why: string) => invalid(`archive entry "${name}" ${why}: nothing was unpacked`);
  if (name.startsWith('/')) throw refuse('has an absolute path');
  const clean = name.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (clean === '' || clean === '.') return null;
  if (clean.split('/').includes('..')) throw refuse('leaves the workspace (..)');
  const path = folder ? `${folder}/${clean}` : clean;
  const problem = workspacePathProblem(path);
  if (problem) throw refuse(problem.replace(/^the path /, 'has a path that '));
  switch (header.type) {
    case 'directory':
      return { kind: 'dir', path };
    case 'file':
    case 'contiguous-file':
      return { kind: 'file', path, data };
    case 'symlink': {
      const target = header.linkname ?? '';
      if (target === '' || target.startsWith('/'))
        throw refuse(`is a symbolic link to an absolute path (${target})`);
      // The link resolves from its own folder; it must stay inside the workspace root.
      const resolved = posix.normalize(posix.join(posix.dirname(path), target));
      if (resolved === '..' || resolved.startsWith('../'))
        throw refuse(`is a symbolic link pointing outside the workspace (${target})`);
      return { kind: 'link', path, target };
    }
    case 'link': {
      const target = (header.linkname ?? '').replace(/^(\.\/)+/, '');
      if (target.startsWith('/') || target.split('/').includes('..'))
        throw refuse(`is a hard link pointing outside the workspace (${header.linkname})`);
      const source = files.get(folder ? `${folder}/${target}` : target);
      if (!source)
        throw refuse(`is a hard link to ${target}, which the archive does not hold before it`);
      return { kind: 'file', path, data: source };
    }
    case 'character-device':
    case 'block-device':
      throw refuse('is a device file');
    case 'fifo':
      throw refuse('is a FIFO');
    default:
      throw refuse(`has a type Berth does not unpack (${String(header.type)})`);
  }
}
