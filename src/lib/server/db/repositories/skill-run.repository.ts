import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { skillRuns } from '../schema';

export type SkillRunRow = typeof skillRuns.$inferSelect;

export class SkillRunRepository {
  constructor(private readonly db: Db) {}

  insert(row: typeof skillRuns.$inferInsert): SkillRunRow {
    return this.db.insert(skillRuns).values(row).returning().get();
  }

  byId(id: string): SkillRunRow | undefined {
    return this.db.select().from(skillRuns).where(eq(skillRuns.id, id)).get();
  }

  finish(id: string, patch: Partial<SkillRunRow>): SkillRunRow | undefined {
    return this.db.update(skillRuns).set(patch).where(eq(skillRuns.id, id)).returning().get();
  }

  failRunning(now: number): number {
    return this.db
      .update(skillRuns)
      .set({ status: 'failed', logs: 'interrupted by a restart', finishedAt: now })
      .where(eq(skillRuns.status, 'running'))
      .run().changes;
  }
}
