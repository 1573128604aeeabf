/**
 * Cross-site request checks for everything SvelteKit answers: pages, form actions, /logout and
 * the console API (tRPC). All of it is authenticated by the session cookie, so a state-changing
 * request must come from our own pages. The gateway (REST, JSON-RPC, webhooks) and the probes
 * are answered before SvelteKit and authenticate by bearer tokens, never by cookies.
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request may change state: safe methods always may; any other needs an `Origin`
 * equal to ours or, where a browser leaves Origin out, `Sec-Fetch-Site: same-origin`. The
 * body's content type plays no part (SvelteKit's own check covers only form types).
 */
export function fromOwnPages(method: string, headers: Headers, ownOrigin: string): boolean {
  if (SAFE_METHODS.has(method)) return true;
  const origin = headers.get('origin');
  if (origin !== null) return origin === ownOrigin;
  return headers.get('sec-fetch-site') === 'same-origin';
}

/**
 * Whether a raw (still percent-encoded) path under `/api` is spelled plainly. SvelteKit routes
 * on the decoded path while tRPC cuts its procedure names out of the raw one by length, so
 * `/api/%74rpc/x,users.create` reaches tRPC as procedures `c/x` and `users.create`. The
 * console's own client never encodes anything in these paths, so under `/api` any escape or
 * empty segment is refused rather than interpreted. Other paths are not concerned.
 */
export function plainApiPath(rawPath: string): boolean {
  if (!rawPath.includes('%') && !rawPath.includes('//')) return true;
  return !/^\/api(\/|$)/i.test(normalise(rawPath));
}

function normalise(rawPath: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    decoded = rawPath;
  }
  return decoded.replace(/\/{2,}/g, '/');
}
