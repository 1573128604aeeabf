import type { IncomingHttpHeaders } from 'node:http';
import { bearerToken } from '../auth/bearer';

/** The token a webhook request presents: `Authorization: Bearer` wins over `x-gateway-token`. */
export function presentedToken(headers: IncomingHttpHeaders): string | null {
  const bearer = bearerToken(headers);
  if (bearer) return bearer;
  const header = headers['x-gateway-token'];
  const value = Array.isArray(header) ? header[0] : header;
  return value?.trim() || null;
}
