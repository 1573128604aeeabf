import type { FastRoute, PrefixRoute, RouteSet } from '../../http/fast-router';
import type { GatewayDeps } from '../gateway.deps';
import { chatSend } from './chat.handler';
import { sendProblem } from './problem';
import { byIdReads, readById } from './reads.handler';
import { identifyRest, type RestAccess } from './rest.auth';
import { restHandler, type RestHandler } from './rest.handler';
import { listSkills, triggerSkill } from './skills.handler';

export const REST_BASE = '/api/v1';

const endpoints: { method: string; path: string; access: RestAccess; handler: RestHandler }[] = [
  { method: 'POST', path: '/chat/send', access: 'write', handler: chatSend },
  { method: 'GET', path: '/skills/list', access: 'read', handler: listSkills },
  { method: 'POST', path: '/skills/trigger', access: 'write', handler: triggerSkill }
];

/**
 * REST v1: exact routes for the operations, prefix routes for reads by id, and a catch-all on
 * /api/v1 so SvelteKit never answers under it (unknown path → 404, other method → 405 + Allow).
 */
export function restRoutes(deps: GatewayDeps): RouteSet {
  const sendError = (
    res: Parameters<typeof sendProblem>[0],
    status: number,
    message: string,
    headers: Record<string, string>
  ) => sendProblem(res, status, message, headers);

  const exact: FastRoute[] = endpoints.map((e) => ({
    method: e.method,
    path: `${REST_BASE}${e.path}`,
    interface: 'rest',
    handle: restHandler(deps, e.access, e.handler),
    sendError
  }));

  const reads: PrefixRoute[] = byIdReads.map((r) => {
    const path = `${REST_BASE}${r.prefix}`;
    return {
      prefix: true,
      path,
      interface: 'rest',
      handle: restHandler(deps, 'read', (ctx) => readById(ctx, path, r.read)),
      sendError
    };
  });

  // The operations are public (the spec lists them), so 404 and 405 need no key; a valid key
  // is still counted under its name.
  const catchAll: PrefixRoute = {
    prefix: true,
    path: REST_BASE,
    interface: 'rest',
    handle: (req, res, pathname) => {
      identifyRest(deps.credentials, req, res);
      const allowed = endpoints
        .filter((e) => `${REST_BASE}${e.path}` === pathname)
        .map((e) => e.method);
      if (allowed.length)
        sendProblem(res, 405, `${req.method ?? ''} is not allowed on ${pathname}`, {
          Allow: allowed.join(', ')
        });
      else sendProblem(res, 404, `No REST operation at ${pathname}`);
    },
    sendError
  };

  return { exact, prefix: [...reads, catchAll] };
}
