import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger';
import { AccessLog } from './access-log';
import { sendJson, type FastRoute, type FastRouter, type PrefixRoute } from './fast-router';
import type { Metrics } from './metrics';
import { credentialName } from './request-context';
import { applyBaseHeaders } from './security-headers';

const STARTED = Symbol('berth.started');
const ROUTE = Symbol('berth.route');
type Tracked = ServerResponse & { [STARTED]: number; [ROUTE]: FastRoute | PrefixRoute | undefined };

export interface FrontDeps {
  router: FastRouter;
  /** Counts a finished request for usage.stats (interface, route, status, credential name). */
  countRequest(iface: string, route: string, status: number, credential: string | null): void;
  acceptsHost(host: string | undefined): boolean;
  metrics: Metrics;
  logger: Logger;
  bodyLimit: number;
  https: boolean;
}

/**
 * Runs first for every HTTP request: the Host check, the body-size check, metrics, and the
 * fast routing table. Returns false to hand the request to SvelteKit, after setting the base
 * security headers (fast routes write API_HEADERS in their own writeHead, which is cheaper).
 */
export function createFront(
  deps: FrontDeps
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { router, metrics } = deps;
  const access = new AccessLog(deps.logger);
  // One listener shared by every response (a closure and a `once` wrapper per request showed
  // in profiles); what it needs rides on the response.
  function onFinish(this: Tracked) {
    const route = this[ROUTE];
    const label = route?.path ?? 'console';
    const iface = route?.interface ?? 'console';
    const credential = credentialName(this);
    metrics.observeRequest(iface, label, this.statusCode, this[STARTED], credential);
    if (!route || route.interface === 'probe') return;
    deps.countRequest(iface, label, this.statusCode, credential);
    const ms = Math.round((performance.now() - this[STARTED]) * 100) / 100;
    access.write(iface, this.req.method ?? '', label, this.statusCode, ms, credential);
  }
  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    const route = router.match(req.method ?? 'GET', pathname);
    const tracked = res as Tracked;
    tracked[STARTED] = performance.now();
    tracked[ROUTE] = route;
    res.on('finish', onFinish);

    if (!deps.acceptsHost(req.headers.host)) {
      sendJson(res, 421, { status: 421, error: 'misdirected', message: 'Unknown Host header' });
      return true;
    }
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > deps.bodyLimit) {
      const message = `Body over ${deps.bodyLimit} bytes`;
      if (route?.sendError) route.sendError(res, 413, message, { Connection: 'close' });
      else
        sendJson(
          res,
          413,
          { status: 413, error: 'payload_too_large', message },
          { Connection: 'close' }
        );
      req.resume();
      return true;
    }
    if (!route) {
      applyBaseHeaders(res, deps.https);
      // SvelteKit builds its URL from this header when ORIGIN is unset; clients cannot choose it.
      req.headers['x-berth-proto'] = deps.https ? 'https' : 'http';
      return false;
    }
    try {
      const done = route.handle(req, res, pathname);
      if (done) done.catch((err: unknown) => fail(deps.logger, res, err));
    } catch (err) {
      fail(deps.logger, res, err);
    }
    return true;
  };
}

function fail(logger: Logger, res: ServerResponse, err: unknown): void {
  logger.error({ err }, 'request failed');
  if (!res.headersSent)
    sendJson(res, 500, { status: 500, error: 'internal', message: 'Internal error' });
  else res.destroy();
}
