import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, type RouteSet } from '../../http/fast-router';
import { setCredentialName } from '../../http/request-context';
import { endSoon } from '../../http/flush';
import { API_HEADERS } from '../../http/security-headers';
import { retryAfterSeconds } from '../auth/auth-throttle';
import type { GatewayDeps } from '../gateway.deps';
import { BodyError, readJsonBody } from '../http/body';
import { errorResponse, handleValue, RpcError, RPC_ERRORS } from './jsonrpc';
import { authenticateHeaders } from './rpc.auth';
import { createDispatcher, type RpcDispatcher } from './rpc.dispatch';

/**
 * POST /rpc. Every answer is a JSON-RPC object. HTTP statuses only say what JSON-RPC cannot:
 * 401 (-32000, with WWW-Authenticate: Bearer), 429 (-32002, with Retry-After and
 * `data.retryAfterMs`) to an address past its failed authentications, 404 while
 * gateway.rpc.enabled is false, 405 for
 * other methods, 413 and 415 for bodies refused unread; everything that reached JSON-RPC,
 * parse errors included, is 200 (the common practice of JSON-RPC servers), and a message of
 * notifications only is 204 with no body.
 */
export function rpcRoutes(deps: GatewayDeps): RouteSet {
  const dispatch = createDispatcher(deps);
  return {
    exact: [
      {
        method: 'POST',
        path: '/rpc',
        interface: 'rpc',
        handle: (req, res) => handlePost(deps, dispatch, req, res)
      }
    ],
    prefix: [
      {
        prefix: true,
        path: '/rpc',
        interface: 'rpc',
        handle: (req, res, pathname) => {
          req.resume();
          if (!deps.config.current.gateway.rpc.enabled || pathname !== '/rpc')
            return refuse(res, 404, RPC_ERRORS.METHOD_NOT_FOUND, 'not found');
          refuse(res, 405, RPC_ERRORS.INVALID_REQUEST, 'use POST', { Allow: 'POST' });
        }
      }
    ]
  };
}

async function handlePost(
  deps: GatewayDeps,
  dispatch: RpcDispatcher,
  req: IncomingMessage,
  res: ServerResponse
): Promise<void> {
  if (!deps.config.current.gateway.rpc.enabled) {
    req.resume();
    return refuse(res, 404, RPC_ERRORS.METHOD_NOT_FOUND, 'the RPC interface is disabled');
  }
  const address = req.socket.remoteAddress;
  const wait = deps.authThrottle.retryAfterMs(address);
  if (wait) {
    req.resume();
    return refuse(
      res,
      429,
      RPC_ERRORS.TOO_MANY,
      'too many failed authentications from this address',
      { 'Retry-After': String(retryAfterSeconds(wait)) },
      { retryAfterMs: wait }
    );
  }
  const caller = authenticateHeaders(req.headers, deps);
  if (!caller) {
    deps.authThrottle.fail(address);
    req.resume();
    return refuse(res, 401, RPC_ERRORS.AUTH, 'a valid bearer token is required', {
      'WWW-Authenticate': 'Bearer'
    });
  }
  setCredentialName(res, caller.name);
  let body: unknown;
  try {
    body = await readJsonBody(req, deps.bodyLimit);
  } catch (err) {
    if (!(err instanceof BodyError)) throw err;
    if (err.status === 400) return sendJson(res, 200, errorResponse(null, parseError(err)));
    // A 413 leaves the rest of the body unread: the connection cannot be reused.
    const close: Record<string, string> = err.status === 413 ? { Connection: 'close' } : {};
    return refuse(res, err.status, RPC_ERRORS.INVALID_REQUEST, err.message, close);
  }
  const answer = await handleValue(body, (call) => dispatch(call, caller, null));
  if (answer === null) {
    res.writeHead(204, { ...API_HEADERS, 'Cache-Control': 'no-store' });
    endSoon(res);
    return;
  }
  sendJson(res, 200, answer);
}

function parseError(err: BodyError): RpcError {
  return new RpcError(RPC_ERRORS.PARSE, err.message);
}

function refuse(
  res: ServerResponse,
  status: number,
  kind: { code: number; message: string },
  detail: string,
  headers: Record<string, string> = {},
  data: Record<string, unknown> = {}
): void {
  sendJson(res, status, errorResponse(null, new RpcError(kind, detail, data)), headers);
}
