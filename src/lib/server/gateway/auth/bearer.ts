import type { IncomingHttpHeaders } from 'node:http';

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(headers: IncomingHttpHeaders): string | null {
  const value = headers.authorization;
  if (!value) return null;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(value);
  return match?.[1] ?? null;
}
