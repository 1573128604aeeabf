import { desc, eq, getTableColumns } from 'drizzle-orm';
import type { Db } from '../client';
import { builds, workspaces } from '../schema';

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type BuildRow = typeof builds.$inferSelect;
/** A history row without its log (lists stay small). */
export type BuildSummaryRow = Omit<BuildRow, 'log'>;

const { log: _log, ...summaryColumns } = getTableColumns(builds);

/** Workspace names and build history; the workspace files are on disk, not here. */
export class BuildFileRepository {
  constructor(private readonly db: Db) {}

  listWorkspaces(): WorkspaceRow[] {
    return this.db.select().from(workspaces).orderBy(workspaces.name).all();
  }

  workspace(id: string): WorkspaceRow | undefined {
    return this.db.select().from(workspaces).where(eq(workspaces.id, id)).get();
  }

  workspaceNamed(name: string): WorkspaceRow | undefined {
    return this.db.select().from(workspaces).where(eq(workspaces.name, name)).get();
  }

  insertWorkspace(row: WorkspaceRow): void {
    this.db.insert(workspaces).values(row).run();
  }

  renameWorkspace(id: string, name: string, now: number): void {
    this.db.update(workspaces).set({ name, updatedAt: now }).where(eq(workspaces.id, id)).run();
  }

  touchWorkspace(id: string, now: number): void {
    this.db.update(workspaces).set({ updatedAt: now }).where(eq(workspaces.id, id)).run();
  }

  deleteWorkspace(id: string): void {
    this.db.delete(workspaces).where(eq(workspaces.id, id)).run();
  }

  insertBuild(row: BuildRow): void {
    this.db.insert(builds).values(row).run();
  }

  finishBuild(id: string, end: Partial<BuildRow>): void {
    this.db.update(builds).set(end).where(eq(builds.id, id)).run();
  }

  build(id: string): BuildRow | undefined {
    return this.db.select().from(builds).where(eq(builds.id, id)).get();
  }

  listBuilds(workspaceId: string | undefined, limit: number): BuildSummaryRow[] {
    const query = this.db.select(summaryColumns).from(builds);
    return (workspaceId ? query.where(eq(builds.workspaceId, workspaceId)) : query)
      .orderBy(desc(builds.startedAt))
      .limit(limit)
      .all();
  }

  /** Builds a stopped Berth left `running`: they cannot be followed any more. */
  failInterrupted(now: number): number {
    return this.db
      .update(builds)
      .set({ status: 'failed', error: 'interrupted by restart', endedAt: now })
      .where(eq(builds.status, 'running'))
      .run().changes;
  }
}
