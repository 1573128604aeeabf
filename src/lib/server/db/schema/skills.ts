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
    trigger: text('trigger').notNull(),
    actor: text('actor'),
    startedAt: integer('started_at').notNull(),
    finishedAt: integer('finished_at'),
    durationMs: integer('duration_ms')
  },
  (t) => [index('skill_runs_started').on(t.startedAt)]
);
