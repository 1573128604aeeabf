import { sendJson } from '../../http/fast-router';
import type { GatewayDeps } from '../gateway.deps';
import { HttpProblem } from './problem';
import type { RestContext } from './rest.handler';

/**
 * Records a caller can follow by id: `GET {prefix}/{id}`. The domain's NOT_FOUND becomes 404
 * in problem.ts; so does a path with more segments.
 */
export const byIdReads: { prefix: string; read: (deps: GatewayDeps, id: string) => unknown }[] = [
  { prefix: '/skills/runs', read: (deps, id) => deps.skills.get(id) },
  { prefix: '/events', read: (deps, id) => deps.events.get(id) },
  { prefix: '/turns', read: (deps, id) => deps.turns.get(id) }
];

export function readById(
  ctx: RestContext,
  fullPrefix: string,
  read: (deps: GatewayDeps, id: string) => unknown
): void {
  if (ctx.req.method !== 'GET' && ctx.req.method !== 'HEAD')
    throw new HttpProblem(405, `${ctx.req.method ?? ''} is not allowed here`, { Allow: 'GET' });
  const id = idFrom(ctx.pathname, fullPrefix);
  if (!id) throw new HttpProblem(404, `No resource at ${ctx.pathname}`);
  sendJson(ctx.res, 200, read(ctx.deps, id));
}

/** `/api/v1/turns/abc` → `abc`; nothing, a deeper path or bad escapes → null. */
export function idFrom(pathname: string, prefix: string): string | null {
  const rest = pathname.slice(prefix.length);
  if (!/^\/[^/]+$/.test(rest)) return null;
  try {
    const id = decodeURIComponent(rest.slice(1));
    return id.length <= 200 ? id : null;
  } catch {
    return null;
  }
}
