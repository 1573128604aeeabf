import { asc, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { agents } from '../schema';

export type AgentRow = typeof agents.$inferSelect;

/** Agents made in the console; config agents never reach this table. */
export class AgentRepository {
  constructor(private readonly db: Db) {}

  all(): AgentRow[] {
    return this.db.select().from(agents).orderBy(asc(agents.createdAt), asc(agents.name)).all();
  }

  insert(row: typeof agents.$inferInsert): AgentRow {
    return this.db.insert(agents).values(row).returning().get();
  }

  update(name: string, patch: Partial<Omit<AgentRow, 'name'>>): AgentRow | undefined {
    return this.db.update(agents).set(patch).where(eq(agents.name, name)).returning().get();
  }

  delete(name: string): boolean {
    return this.db.delete(agents).where(eq(agents.name, name)).run().changes > 0;
  }
}
