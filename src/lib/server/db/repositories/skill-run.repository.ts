import { and, desc, eq, lt, or } from 'drizzle-orm';
import type { Db } from '../client';
import { skillDefinitions, skillRuns } from '../schema';

export type SkillRunRow = typeof skillRuns.$inferSelect;
export type SkillDefinitionRow = typeof skillDefinitions.$inferSelect;

export class SkillRunRepository {
  constructor(private readonly db: Db) {}

  insert(row: typeof skillRuns.$inferInsert): SkillRunRow {
    return this.db.insert(skillRuns).values(row).returning().get();
  }

  byId(id: string): SkillRunRow | undefined {
    return this.db.select().from(skillRuns).where(eq(skillRuns.id, id)).get();
  }

  /** Newest first, `limit` rows from after the cursor (started at, id), of one skill or all. */
  page(
    filter: { skillId?: string },
    limit: number,
    cursor?: { at: number; id: string }
  ): SkillRunRow[] {
    const r = skillRuns;
    return this.db
      .select()
      .from(r)
      .where(
        and(
          filter.skillId === undefined ? undefined : eq(r.skillId, filter.skillId),
          cursor
            ? or(lt(r.startedAt, cursor.at), and(eq(r.startedAt, cursor.at), lt(r.id, cursor.id)))
            : undefined
        )
      )
      .orderBy(desc(r.startedAt), desc(r.id))
      .limit(limit)
      .all();
  }

  finish(id: string, patch: Partial<SkillRunRow>): SkillRunRow | undefined {
    return this.db.update(skillRuns).set(patch).where(eq(skillRuns.id, id)).returning().get();
  }

  failRunning(now: number): number {
    return this.db
      .update(skillRuns)
      .set({ status: 'failed', error: 'interrupted by a restart', finishedAt: now })
      .where(eq(skillRuns.status, 'running'))
      .run().changes;
  }

  definitions(): SkillDefinitionRow[] {
    return this.db.select().from(skillDefinitions).all();
  }

  /** Creates or replaces a console skill; the creation time and author of a replaced one stay. */
  saveDefinition(row: typeof skillDefinitions.$inferInsert): SkillDefinitionRow {
    return this.db
      .insert(skillDefinitions)
      .values(row)
      .onConflictDoUpdate({
        target: skillDefinitions.id,
        set: { definition: row.definition, updatedAt: row.updatedAt }
      })
      .returning()
      .get();
  }

  deleteDefinition(id: string): boolean {
    return this.db.delete(skillDefinitions).where(eq(skillDefinitions.id, id)).run().changes > 0;
  }
}
