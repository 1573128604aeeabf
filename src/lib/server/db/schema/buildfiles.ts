import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Build-file workspaces: the files live under `<data dir>/workspaces/<id>/`, only names here. */
export const workspaces = sqliteTable('workspaces', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  createdBy: text('created_by'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull()
});

/** Builds run from a workspace: who, where, how it ended, and its log (capped). */
export const builds = sqliteTable(
  'builds',
  {
    id: text('id').primaryKey(),
    /** Kept after the workspace is deleted: history outlives it. */
    workspaceId: text('workspace_id').notNull(),
    workspaceName: text('workspace_name').notNull(),
    buildFile: text('build_file').notNull(),
    tag: text('tag').notNull(),
    engine: text('engine').notNull(),
    target: text('target'),
    userId: text('user_id'),
    userEmail: text('user_email'),
    startedAt: integer('started_at').notNull(),
    endedAt: integer('ended_at'),
    /** running, succeeded, failed, cancelled. */
    status: text('status').notNull(),
    error: text('error'),
    /** The failing step (`Step 3/5 : RUN …`) and its line in the build file, when known. */
    failedStep: integer('failed_step'),
    failedLine: integer('failed_line'),
    imageId: text('image_id'),
    log: text('log').notNull().default(''),
    logTruncated: integer('log_truncated', { mode: 'boolean' }).notNull().default(false)
  },
  (t) => [
    index('builds_started_idx').on(t.startedAt),
    index('builds_workspace_idx').on(t.workspaceId)
  ]
);
