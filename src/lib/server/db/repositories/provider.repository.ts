import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { consoleProviders } from '../schema';

export type ConsoleProviderRow = typeof consoleProviders.$inferSelect;

/** The model providers added in the console (the file's `providers:` are not stored here). */
export class ProviderRepository {
  constructor(private readonly db: Db) {}

  list(): ConsoleProviderRow[] {
    return this.db.select().from(consoleProviders).orderBy(consoleProviders.name).all();
  }

  get(name: string): ConsoleProviderRow | undefined {
    return this.db.select().from(consoleProviders).where(eq(consoleProviders.name, name)).get();
  }

  insert(row: ConsoleProviderRow): void {
    this.db.insert(consoleProviders).values(row).run();
  }

  update(name: string, changes: Partial<Omit<ConsoleProviderRow, 'name'>>): void {
    this.db.update(consoleProviders).set(changes).where(eq(consoleProviders.name, name)).run();
  }

  delete(name: string): boolean {
    return (
      this.db.delete(consoleProviders).where(eq(consoleProviders.name, name)).run().changes > 0
    );
  }
}
