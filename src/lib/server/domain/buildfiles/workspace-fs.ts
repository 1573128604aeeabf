import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, realpath, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import {
  FILE_MAX_BYTES,
  WORKSPACE_MAX_BYTES,
  WORKSPACE_MAX_ENTRIES,
  workspacePathProblem,
  type FileEntry
} from '$lib/contracts/buildfiles';
import { conflict, invalid, notFound } from '../../errors';

/**
 * One workspace's folder on disk. Every path is checked as text (no `..`, absolute path, NUL,
 * backslash) and then on disk: each existing component is looked at with lstat, so a symbolic
 * link is never followed, and the folder that receives a file is realpath'd and must lie inside
 * the workspace. Only Berth writes here; symbolic links exist only as unpacked from an archive,
 * relative and pointing inside, and are sent to the engine as links, never read through.
 */
export class WorkspaceFs {
  constructor(readonly root: string) {}

  /** The absolute path of `rel`, after the text check and a walk refusing symbolic links. */
  async resolve(rel: string, { allowLinkLeaf = false } = {}): Promise<string> {
    const problem = workspacePathProblem(rel);
    if (problem) throw invalid(`${rel}: ${problem}`);
    const parts = rel.split('/');
    let at = this.root;
    for (let i = 0; i < parts.length; i++) {
      at = join(at, parts[i]!);
      const info = await lstat(at).catch(() => null);
      if (!info) break;
      const leaf = i === parts.length - 1;
      if (info.isSymbolicLink() && !(leaf && allowLinkLeaf))
        throw invalid(
          `${parts.slice(0, i + 1).join('/')} is a symbolic link: Berth does not follow links`
        );
      if (!leaf && !info.isDirectory())
        throw invalid(`${parts.slice(0, i + 1).join('/')} is not a folder`);
    }
    at = join(this.root, ...parts);
    const parent = await realpath(dirname(at)).catch(() => null);
    const root = await realpath(this.root);
    if (parent && parent !== root && !parent.startsWith(root + sep))
      throw invalid(`${rel}: the path leaves the workspace`);
    return at;
  }

  async create(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: 0o700 });
  }

  async destroy(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }

  /** Every file, folder and link, depth first, sorted by path. */
  async tree(): Promise<FileEntry[]> {
    const out: FileEntry[] = [];
    const walk = async (dir: string) => {
      const names = (await readdir(join(this.root, dir))).sort();
      for (const name of names) {
        if (out.length >= WORKSPACE_MAX_ENTRIES) return;
        const path = dir ? `${dir}/${name}` : name;
        const info = await lstat(join(this.root, path));
        if (info.isDirectory()) {
          out.push({ path, kind: 'dir', size: 0 });
          await walk(path);
        } else if (info.isFile()) out.push({ path, kind: 'file', size: info.size });
        else if (info.isSymbolicLink()) out.push({ path, kind: 'link', size: 0 });
      }
    };
    await walk('');
    return out;
  }

  async usage(): Promise<{ bytes: number; entries: number }> {
    const tree = await this.tree();
    return { bytes: tree.reduce((n, e) => n + e.size, 0), entries: tree.length };
  }

  async read(rel: string): Promise<string> {
    const at = await this.resolve(rel);
    const info = await lstat(at).catch(() => null);
    if (!info) throw notFound(`file ${rel}`);
    if (!info.isFile()) throw invalid(`${rel} is not a file`);
    if (info.size > FILE_MAX_BYTES)
      throw invalid(`${rel} is over ${FILE_MAX_BYTES} bytes: too large to edit`);
    const bytes = await readFile(at);
    if (bytes.includes(0)) throw invalid(`${rel} is a binary file: it cannot be edited as text`);
    return bytes.toString('utf8');
  }

  /** Writes a file, creating its folders; refused past the file and workspace caps. */
  async write(rel: string, content: Buffer | string): Promise<void> {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    if (bytes.length > FILE_MAX_BYTES)
      throw invalid(`${rel} is over ${FILE_MAX_BYTES} bytes (the limit for one file)`);
    const at = await this.resolve(rel);
    const before = await lstat(at).catch(() => null);
    if (before && !before.isFile()) throw conflict(`${rel} exists and is not a file`);
    const usage = await this.usage();
    if (!before && usage.entries >= WORKSPACE_MAX_ENTRIES)
      throw invalid(`the workspace holds ${WORKSPACE_MAX_ENTRIES} entries: remove some first`);
    if (usage.bytes - (before?.size ?? 0) + bytes.length > WORKSPACE_MAX_BYTES)
      throw invalid(`the workspace would exceed ${WORKSPACE_MAX_BYTES / 1024 / 1024} MiB`);
    await this.mkdirs(dirname(rel));
    // O_NOFOLLOW: a link put in the way after the check is not written through.
    const file = await open(
      at,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      0o600
    );
    try {
      await file.writeFile(bytes);
    } finally {
      await file.close();
    }
  }

  /** Creates a folder and its parents (`.` is the root: nothing to do). */
  async mkdirs(rel: string): Promise<void> {
    if (rel === '.' || rel === '') return;
    const at = await this.resolve(rel);
    const info = await lstat(at).catch(() => null);
    if (info?.isDirectory()) return;
    if (info) throw conflict(`${rel} exists and is not a folder`);
    await this.mkdirs(dirname(rel));
    await mkdir(at, { mode: 0o700 });
  }

  async move(from: string, to: string): Promise<void> {
    const src = await this.resolve(from, { allowLinkLeaf: true });
    if (!(await lstat(src).catch(() => null))) throw notFound(`${from}`);
    if (to === from || to.startsWith(from + '/')) throw invalid(`${from} cannot move into itself`);
    const dst = await this.resolve(to, { allowLinkLeaf: true });
    if (await lstat(dst).catch(() => null)) throw conflict(`${to} already exists`);
    await this.mkdirs(dirname(to));
    await rename(src, dst);
  }

  async remove(rel: string): Promise<void> {
    const at = await this.resolve(rel, { allowLinkLeaf: true });
    if (!(await lstat(at).catch(() => null))) throw notFound(`${rel}`);
    await rm(at, { recursive: true, force: true });
  }

  /** The path of `abs` inside the workspace, `/`-separated. */
  relative(abs: string): string {
    return relative(this.root, abs).split(sep).join('/');
  }
}
