import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/** `%`, `_` and the escape itself match literally in a LIKE pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `expr` contains `text`, any case, wildcards taken literally. */
export function containsText(expr: SQLWrapper, text: string): SQL {
  return sql`lower(${expr}) like ${`%${escapeLike(text.toLowerCase())}%`} escape '\\'`;
}

/** `expr` starts with `prefix`, wildcards taken literally. */
export function startsWith(expr: SQLWrapper, prefix: string): SQL {
  return sql`${expr} like ${`${escapeLike(prefix)}%`} escape '\\'`;
}
