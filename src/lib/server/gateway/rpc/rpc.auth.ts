import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Role } from '$lib/contracts/roles';
import { rpcContract } from '$lib/contracts/rpc-methods';
import { CredentialService, type RpcCredential } from '../../domain/access/credential.service';
import type { GatewayDeps } from '../gateway.deps';
import { bearerToken } from '../auth/bearer';

/** Who is calling: an RPC token, a signed-in console user (WebSocket only), or nobody (auth none). */
export interface Caller {
  /** Counted in /metrics and usage.stats; never a secret. */
  name: string;
  kind: 'token' | 'console' | 'anonymous';
  /** The RPC token's id, to close its sockets when it is revoked or rotated. */
  credentialId: string | null;
  may(method: string): boolean;
}

/** Methods any authenticated caller may use: they reveal or change nothing. */
const always = (method: string) => rpcContract(method)?.access === 'always';

/** What a console viewer may call over /rpc/ws; operators and admins may call everything. */
const readable = (method: string) => {
  const access = rpcContract(method)?.access;
  return access === 'read' || access === 'always';
};

/** One Caller per credential object (they are replaced when credentials change), not per call. */
const callers = new WeakMap<RpcCredential, Caller>();

export function tokenCaller(credential: RpcCredential): Caller {
  let caller = callers.get(credential);
  if (!caller) {
    caller = {
      name: credential.name,
      kind: 'token',
      credentialId: credential.id,
      may: (method) => always(method) || CredentialService.permits(credential, method)
    };
    callers.set(credential, caller);
  }
  return caller;
}

export function consoleCaller(user: { email: string; role: Role }): Caller {
  return {
    name: `console:${user.email}`,
    kind: 'console',
    credentialId: null,
    may: (method) => user.role !== 'viewer' || readable(method)
  };
}

export const ANONYMOUS: Caller = {
  name: 'anonymous',
  kind: 'anonymous',
  credentialId: null,
  may: () => true
};

/**
 * The caller of an HTTP request or a WebSocket upgrade from its Bearer header, or null.
 * With `auth.type: none` (loopback only, enforced at start) no token is needed, but a valid
 * one still names the caller.
 */
export function authenticateHeaders(
  headers: IncomingHttpHeaders,
  deps: Pick<GatewayDeps, 'config' | 'credentials'>
): Caller | null {
  const token = bearerToken(headers);
  const credential = token === null ? null : deps.credentials.authenticateRpc(token);
  if (credential) return tokenCaller(credential);
  return deps.config.current.gateway.rpc.auth.type === 'none' ? ANONYMOUS : null;
}

/**
 * A WebSocket authenticated by a token (Bearer header at the upgrade, or the first frame's
 * `auth` for browsers that cannot set headers); `stillValid` is asked again after a reload.
 */
export function tokenSession(
  token: string,
  deps: Pick<GatewayDeps, 'config' | 'credentials'>
): Extract<UpgradeAuth, { kind: 'caller' }> | null {
  const credential = deps.credentials.authenticateRpc(token);
  if (!credential) return null;
  return {
    kind: 'caller',
    caller: tokenCaller(credential),
    stillValid: () =>
      deps.config.current.gateway.rpc.enabled &&
      deps.credentials.authenticateRpc(token)?.id === credential.id
  };
}

export type UpgradeAuth =
  | { kind: 'caller'; caller: Caller; loginSessionId?: string; stillValid(): boolean }
  | { kind: 'pending' }
  | { kind: 'refuse'; status: 401 | 404 }
  | { kind: 'refuse'; status: 429; retryAfterMs: number };

export interface UpgradeAuthDeps extends Pick<
  GatewayDeps,
  'config' | 'credentials' | 'authThrottle'
> {
  acceptsHost(host: string | undefined): boolean;
  acceptsOrigin(origin: string | undefined, host: string | undefined): boolean;
  /** The signed-in console user behind the request's session cookie, if any. */
  consoleUser(req: IncomingMessage): { sessionId: string; email: string; role: Role } | null;
}

/**
 * A first `auth` frame on a socket opened without credentials; `token` is undefined when the
 * first frame is something else, which fails the same way. Like any refused credential it
 * counts against the address, which is refused outright once past its failures.
 */
export function authenticateFrame(
  token: string | undefined,
  address: string | undefined,
  deps: Pick<GatewayDeps, 'config' | 'credentials' | 'authThrottle'>
): Extract<UpgradeAuth, { kind: 'caller' }> | Extract<UpgradeAuth, { kind: 'refuse' }> {
  const retryAfterMs = deps.authThrottle.retryAfterMs(address);
  if (retryAfterMs) return { kind: 'refuse', status: 429, retryAfterMs };
  const session = token === undefined ? null : tokenSession(token, deps);
  if (session) return session;
  deps.authThrottle.fail(address);
  return { kind: 'refuse', status: 401 };
}

/**
 * /rpc/ws at the upgrade: a Bearer header (refused with 401 when wrong), or a console session
 * cookie from this origin, or nothing yet: the first frame must then be `auth` with a token.
 * A token, unlike a cookie, is not sent by the browser on its own, so only the cookie path
 * checks Origin.
 */
export function authenticateUpgrade(req: IncomingMessage, deps: UpgradeAuthDeps): UpgradeAuth {
  const rpc = deps.config.current.gateway.rpc;
  if (!rpc.enabled) return { kind: 'refuse', status: 404 };
  const address = req.socket.remoteAddress;
  const retryAfterMs = deps.authThrottle.retryAfterMs(address);
  if (retryAfterMs) return { kind: 'refuse', status: 429, retryAfterMs };
  if (!deps.acceptsHost(req.headers.host)) return { kind: 'refuse', status: 401 };
  const token = bearerToken(req.headers);
  if (token !== null) {
    const session = tokenSession(token, deps);
    if (session) return session;
    deps.authThrottle.fail(address);
    return { kind: 'refuse', status: 401 };
  }
  if (rpc.auth.type === 'none')
    return {
      kind: 'caller',
      caller: ANONYMOUS,
      stillValid: () =>
        deps.config.current.gateway.rpc.enabled &&
        deps.config.current.gateway.rpc.auth.type === 'none'
    };
  const origin = req.headers.origin;
  if (origin === undefined || deps.acceptsOrigin(origin, req.headers.host)) {
    const user = deps.consoleUser(req);
    if (user)
      return {
        kind: 'caller',
        caller: consoleCaller(user),
        loginSessionId: user.sessionId,
        stillValid: () => deps.config.current.gateway.rpc.enabled
      };
  }
  return { kind: 'pending' };
}
