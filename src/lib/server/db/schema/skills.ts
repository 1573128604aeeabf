import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const skillRuns = sqliteTable(
  'skill_runs',
  {
    id: text('id').primaryKey(),
    skillId: text('skill_id').notNull(),
    params: text('params', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: ['running', 'completed', 'failed'] }).notNull(),
    exitCode: integer('exit_code'),
    output: text('output', { mode: 'json' }).$type<unknown>(),
    logs: text('logs'),
    /** Why a failed run failed, in words (the logs keep what it printed). */
    error: text('error'),
    trigger: text('trigger').notNull(),
    actor: text('actor'),
    startedAt: integer('started_at').notNull(),
    finishedAt: integer('finished_at'),
    durationMs: integer('duration_ms')
  },
  (t) => [
    index('skill_runs_started').on(t.startedAt),
    index('skill_runs_skill_started').on(t.skillId, t.startedAt)
  ]
);

/** Skills created in the console (berth.yaml's are read from the file, never stored here). */
export const skillDefinitions = sqliteTable('skill_definitions', {
  id: text('id').primaryKey(),
  definition: text('definition', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  createdBy: text('created_by'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull()
});
