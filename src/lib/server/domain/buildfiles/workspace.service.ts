import { join } from 'node:path';
import type { ContextEntry, FileEntry, WorkspaceInfo } from '$lib/contracts/buildfiles';
import { roleAtLeast, type Role } from '$lib/contracts/roles';
import type { BuildFileRepository, WorkspaceRow } from '../../db/repositories/buildfile.repository';
import { conflict, forbidden, invalid, notFound } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { EngineActor } from '../engine/engine-access';
import { uuidv7 } from '../ids';
import { unpackArchive } from './archive';
import { contextEntries } from './build-context';
import { WorkspaceFs } from './workspace-fs';

/** Checks a role in the domain (the tRPC router checks it too): viewers read, operators write. */
export function requireRole(actor: EngineActor, minimum: Role, doing: string): void {
  if (!roleAtLeast(actor.role, minimum)) throw forbidden(`Needs the ${minimum} role to ${doing}`);
}

/**
 * Build-file workspaces: a name in SQLite, the files under `<data dir>/workspaces/<id>/`.
 * Creating, renaming and deleting a workspace is audited; file edits are not (they are the
 * workspace's content, and each build that uses them is).
 */
export class WorkspaceService {
  /** Workspaces a build is reading now: they cannot be deleted under it. */
  readonly building = new Map<string, number>();

  constructor(
    private readonly repo: BuildFileRepository,
    private readonly dir: string,
    private readonly audit: AuditService
  ) {}

  list(actor: EngineActor): WorkspaceInfo[] {
    requireRole(actor, 'viewer', 'see workspaces');
    return this.repo.listWorkspaces().map(info);
  }

  async create(actor: EngineActor, input: { name: string }): Promise<WorkspaceInfo> {
    requireRole(actor, 'operator', 'create workspaces');
    if (this.repo.workspaceNamed(input.name))
      throw conflict(`a workspace named ${input.name} exists`);
    const now = Date.now();
    const row: WorkspaceRow = {
      id: uuidv7(now),
      name: input.name,
      createdBy: actor.email,
      createdAt: now,
      updatedAt: now
    };
    await this.#fs(row.id).create();
    this.repo.insertWorkspace(row);
    this.audit.record(actor, 'buildfiles.workspace.create', `workspace/${row.id}`, {
      name: row.name
    });
    return info(row);
  }

  rename(actor: EngineActor, input: { workspace: string; name: string }): WorkspaceInfo {
    requireRole(actor, 'operator', 'rename workspaces');
    const row = this.get(input.workspace);
    const clash = this.repo.workspaceNamed(input.name);
    if (clash && clash.id !== row.id) throw conflict(`a workspace named ${input.name} exists`);
    this.repo.renameWorkspace(row.id, input.name, Date.now());
    this.audit.record(actor, 'buildfiles.workspace.rename', `workspace/${row.id}`, {
      from: row.name,
      to: input.name
    });
    return info({ ...row, name: input.name });
  }

  async delete(actor: EngineActor, input: { workspace: string }): Promise<void> {
    requireRole(actor, 'operator', 'delete workspaces');
    const row = this.get(input.workspace);
    if (this.building.get(row.id))
      throw conflict(`${row.name} is being built: cancel the build first`);
    this.repo.deleteWorkspace(row.id);
    await this.#fs(row.id).destroy();
    this.audit.record(actor, 'buildfiles.workspace.delete', `workspace/${row.id}`, {
      name: row.name
    });
  }

  get(id: string): WorkspaceRow {
    const row = this.repo.workspace(id);
    if (!row) throw notFound(`workspace ${id}`);
    return row;
  }

  /** The workspace's files, after the role check for reading or writing them. */
  files(actor: EngineActor, id: string, write = false): WorkspaceFs {
    if (write) requireRole(actor, 'operator', 'change workspace files');
    else requireRole(actor, 'viewer', 'read workspace files');
    return this.#fs(this.get(id).id);
  }

  async tree(actor: EngineActor, input: { workspace: string }): Promise<FileEntry[]> {
    return this.files(actor, input.workspace).tree();
  }

  async read(actor: EngineActor, input: { workspace: string; path: string }) {
    return { path: input.path, content: await this.files(actor, input.workspace).read(input.path) };
  }

  async write(actor: EngineActor, input: { workspace: string; path: string; content: string }) {
    await this.files(actor, input.workspace, true).write(input.path, input.content);
    this.repo.touchWorkspace(input.workspace, Date.now());
  }

  async mkdir(actor: EngineActor, input: { workspace: string; path: string }) {
    await this.files(actor, input.workspace, true).mkdirs(input.path);
  }

  async move(actor: EngineActor, input: { workspace: string; from: string; to: string }) {
    await this.files(actor, input.workspace, true).move(input.from, input.to);
    this.repo.touchWorkspace(input.workspace, Date.now());
  }

  async remove(actor: EngineActor, input: { workspace: string; path: string }) {
    await this.files(actor, input.workspace, true).remove(input.path);
    this.repo.touchWorkspace(input.workspace, Date.now());
  }

  /** Files sent as base64; every path is checked before the first is written. */
  async upload(
    actor: EngineActor,
    input: { workspace: string; folder: string; files: { path: string; base64: string }[] }
  ) {
    const fs = this.files(actor, input.workspace, true);
    const paths = input.files.map((f) => (input.folder ? `${input.folder}/${f.path}` : f.path));
    for (const p of paths) await fs.resolve(p);
    for (const [i, f] of input.files.entries())
      await fs.write(paths[i]!, Buffer.from(f.base64, 'base64'));
    this.repo.touchWorkspace(input.workspace, Date.now());
    return { files: paths.length };
  }

  async uploadArchive(
    actor: EngineActor,
    input: { workspace: string; folder: string; base64: string }
  ) {
    const fs = this.files(actor, input.workspace, true);
    const archive = Buffer.from(input.base64, 'base64');
    if (archive.length === 0) throw invalid('the archive is empty');
    const counts = await unpackArchive(fs, input.folder, archive);
    this.repo.touchWorkspace(input.workspace, Date.now());
    return counts;
  }

  /** Which files the build context holds and which the ignore file keeps out. */
  async contextPreview(
    actor: EngineActor,
    input: { workspace: string; buildFile: string }
  ): Promise<{ entries: ContextEntry[]; hasIgnoreFile: boolean }> {
    const { entries, hasIgnoreFile } = await contextEntries(
      this.files(actor, input.workspace),
      input.buildFile
    );
    return {
      entries: entries
        .filter((e) => e.kind !== 'dir')
        .map(({ path, size, ignored }) => ({ path, size, ignored })),
      hasIgnoreFile
    };
  }

  #fs(id: string): WorkspaceFs {
    return new WorkspaceFs(join(this.dir, id));
  }
}

function info(row: WorkspaceRow): WorkspaceInfo {
  return { ...row };
}
