import { getTableColumns, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';

/**
 * Every column of `table` as a placeholder of the same name, for an insert prepared once. The
 * placeholders are SQL, so no column encoder runs: JSON goes in as the caller's text.
 */
export function everyColumn<T extends SQLiteTable>(table: T): T['$inferInsert'] {
  return Object.fromEntries(
    Object.keys(getTableColumns(table)).map((key) => [key, sql`${sql.placeholder(key)}`])
  );
}
