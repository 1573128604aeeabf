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

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;
const NO_DIGEST = Buffer.alloc(0);

/**
 * GitHub's `X-Hub-Signature-256: sha256=<hex>` as the digest's bytes; null when the header is
 * absent. A malformed value gives an empty digest, which no secret matches (so it is refused
 * like a wrong signature).
 */
export function presentedSignature(headers: IncomingHttpHeaders): Buffer | null {
  const header = headers['x-hub-signature-256'];
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  const hex = SIGNATURE.exec(value)?.[1];
  return hex ? Buffer.from(hex, 'hex') : NO_DIGEST;
}
