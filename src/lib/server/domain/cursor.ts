import { invalid } from '../errors';

/** Opaque page cursors: base64url of `at:id`. A malformed one is the caller's error. */
export function encodeCursor(at: number, id: string): string {
  return Buffer.from(`${at}:${id}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): { at: number; id: string } | undefined {
  if (cursor === undefined) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const colon = text.indexOf(':');
  const at = Number(text.slice(0, colon));
  if (colon < 1 || !Number.isSafeInteger(at) || !text.slice(colon + 1))
    throw invalid('cursor is not valid');
  return { at, id: text.slice(colon + 1) };
}

/**
 * One page from `limit + 1` rows fetched newest first: the rows mapped, and a cursor when more
 * remain (taken from the last row kept).
 */
export function paginate<Row, Out>(
  rows: Row[],
  limit: number,
  key: (row: Row) => [at: number, id: string],
  map: (row: Row) => Out
): { items: Out[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(map),
    nextCursor: rows.length > limit && last ? encodeCursor(...key(last)) : null
  };
}
