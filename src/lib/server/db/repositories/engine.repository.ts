import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { consoleEngines } from '../schema';

export type ConsoleEngineRow = typeof consoleEngines.$inferSelect;

/** The remote engines added in the console (the file's `engines:` are not stored here). */
export class EngineRepository {
  constructor(private readonly db: Db) {}

  list(): ConsoleEngineRow[] {
    return this.db.select().from(consoleEngines).orderBy(consoleEngines.name).all();
  }

  get(name: string): ConsoleEngineRow | undefined {
    return this.db.select().from(consoleEngines).where(eq(consoleEngines.name, name)).get();
  }

  insert(row: ConsoleEngineRow): void {
    this.db.insert(consoleEngines).values(row).run();
  }

  delete(name: string): boolean {
    return this.db.delete(consoleEngines).where(eq(consoleEngines.name, name)).run().changes > 0;
  }
}
