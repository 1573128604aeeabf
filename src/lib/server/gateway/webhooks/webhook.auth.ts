import type { IncomingHttpHeaders } from 'node:http';
import { bearerToken } from '../auth/bearer';

/**
 * The token a webhook request presents: `Authorization: Bearer`, else `x-gateway-token`, else
 * `x-gitlab-token` (GitLab's "Secret token" field sends it there and cannot set another header).
 */
export function presentedToken(headers: IncomingHttpHeaders): string | null {
  const bearer = bearerToken(headers);
  if (bearer) return bearer;
  for (const name of ['x-gateway-token', 'x-gitlab-token']) {
    const header = headers[name];
    const value = (Array.isArray(header) ? header[0] : header)?.trim();
    if (value) return value;
  }
  return null;
}
