import { building } from '$app/environment';
import {
  error,
  isHttpError,
  redirect,
  type Handle,
  type HandleServerError,
  type ServerInit
} from '@sveltejs/kit';
import { sequence } from '@sveltejs/kit/hooks';
import { roleAtLeast } from '$lib/contracts/roles';
import { startApp } from '$lib/server/start';
import { findApp, getApp } from '$lib/server/runtime';
import { accessFor } from '$lib/server/console/route-access';
import { fromOwnPages, plainApiPath } from '$lib/server/console/origin-guard';
import { clearSessionCookie, setSessionCookie } from '$lib/server/console/session-cookie';
import { SESSION_COOKIE } from '$lib/server/http/cookie';
import { toDomainError } from '$lib/server/errors';

export const init: ServerInit = async () => {
  if (!building) await startApp();
};

const context: Handle = ({ event, resolve }) => {
  event.locals.requestId = crypto.randomUUID();
  event.locals.clientIp = safeClientAddress(event);
  event.locals.user = null;
  event.locals.session = null;
  event.locals.deniedFor = null;
  return resolve(event);
};

const authenticate: Handle = ({ event, resolve }) => {
  const token = event.cookies.get(SESSION_COOKIE);
  if (!token) return resolve(event);
  const secure = event.url.protocol === 'https:';
  const valid = getApp().loginSessions.validate(token);
  if (!valid) {
    clearSessionCookie(event.cookies, secure);
    return resolve(event);
  }
  if (valid.renewed) setSessionCookie(event.cookies, token, valid.expiresAt, secure);
  event.locals.user = valid.user;
  event.locals.session = { id: valid.sessionId, expiresAt: valid.expiresAt };
  return resolve(event);
};

const guard: Handle = async ({ event, resolve }) => {
  const access = accessFor(event.route.id);
  if (access.kind === 'public') return resolve(event);
  const { user } = event.locals;
  if (!user) {
    if (event.request.method === 'GET' || event.request.method === 'HEAD')
      redirect(303, `/login?next=${encodeURIComponent(event.url.pathname + event.url.search)}`);
    error(401, 'Sign in first');
  }
  if (!roleAtLeast(user.role, access.role)) {
    // A page shows "Not allowed" in the shell (the (console) layout, never mounting the page,
    // whose data comes through role-checked tRPC); anything else is refused here.
    if (event.request.method !== 'GET' && event.request.method !== 'HEAD')
      error(403, `This needs the ${access.role} role`);
    event.locals.deniedFor = access.role;
    const response = await resolve(event);
    // The page itself (not its data, which a client-side navigation reads) answers 403.
    if (event.isDataRequest || response.status !== 200) return response;
    return new Response(response.body, { status: 403, headers: response.headers });
  }
  return resolve(event);
};

/**
 * Every route SvelteKit answers is cookie-authenticated, so state changes must come from our
 * own pages; this runs before the session is even read (a path no route takes stays a 404).
 * Then non-plain `/api` paths are refused, so no spelling but the one the console's client
 * sends can reach tRPC, even from our own pages.
 */
const sameOrigin: Handle = ({ event, resolve }) => {
  const { method, headers } = event.request;
  if (event.route.id !== null && !fromOwnPages(method, headers, event.url.origin))
    error(403, 'Cross-site request refused');
  if (!plainApiPath(event.url.pathname)) error(400, 'Path must be spelled plainly');
  return resolve(event);
};

const theme: Handle = ({ event, resolve }) => {
  const chosen = event.cookies.get('berth_theme');
  const value = chosen === 'dark' || chosen === 'light' ? chosen : 'system';
  return resolve(event, { transformPageChunk: ({ html }) => html.replace('%berth.theme%', value) });
};

/**
 * A page, form action or endpoint that met a storage fault (locked database, full disk) answers
 * 503 with Retry-After instead of 500: handleError below notes the fault on the request.
 */
const unavailable: Handle = async ({ event, resolve }) => {
  const response = await resolve(event);
  const retryAfter = event.locals.storageRetryAfter;
  if (retryAfter === undefined || response.status !== 500) return response;
  const headers = new Headers(response.headers);
  headers.set('retry-after', String(retryAfter));
  return new Response(response.body, { status: 503, statusText: 'Service Unavailable', headers });
};

export const handle = sequence(unavailable, context, sameOrigin, authenticate, guard, theme);

export const handleError: HandleServerError = ({ error: err, event, status, message }) => {
  const domain = toDomainError(err);
  if (domain?.code === 'UNAVAILABLE') {
    event.locals.storageRetryAfter = domain.extra.retryAfterSeconds ?? 1;
    return { message: domain.message, requestId: event.locals.requestId };
  }
  if (status >= 500 && !isHttpError(err))
    findApp()?.logger.error(
      { err, requestId: event.locals.requestId, path: event.url.pathname },
      'unhandled error'
    );
  return { message: status >= 500 ? 'Internal error' : message, requestId: event.locals.requestId };
};

function safeClientAddress(event: Parameters<Handle>[0]['event']): string {
  try {
    return event.getClientAddress();
  } catch {
    return 'unknown';
  }
}
