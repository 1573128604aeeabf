import { invalid } from './errors';

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
