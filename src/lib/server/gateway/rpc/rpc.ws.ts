import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { DomainBus } from '../../domain/bus';
import type { Logger } from '../../logger';
import { retryAfterSeconds } from '../auth/auth-throttle';
import type { UpgradeAuth } from './rpc.auth';
import { AUTH_CLOSE, Connection, POLICY_CLOSE, type Authenticated } from './rpc.connection';
import type { RpcDispatcher } from './rpc.dispatch';
import { watchBus, type Push } from './rpc.topics';

/** `gateway.rpc.ws`, read at each upgrade so a reload applies to new connections. */
export interface RpcWsLimits {
  /** Authenticated connections. */
  maxConnections: number;
  /** Connections still to send `auth`, in all and from one client address. */
  maxPending: number;
  maxPendingPerAddress: number;
  /** Time a connection without credentials has to send `auth`. */
  authTimeoutMs: number;
}

export interface RpcWsOptions {
  /** At the upgrade: a caller, `pending` (first frame must be `auth`), or a refusal. */
  authenticate(req: IncomingMessage): UpgradeAuth;
  /** The token of a first-frame `auth` (undefined: the first frame was something else). */
  authenticateFrame(
    token: string | undefined,
    address: string | undefined
  ): Authenticated | Extract<UpgradeAuth, { kind: 'refuse' }>;
  dispatch: RpcDispatcher;
  bus: DomainBus;
  logger: Logger;
  maxPayload: number;
  limits(): RpcWsLimits;
  /** Messages answered at once per connection; beyond it the connection stops reading. */
  maxInFlight?: number;
  onCount(open: number): void;
}

/** A subscriber this far behind is dropped rather than buffered without end. */
const MAX_BUFFERED = 8 * 1024 * 1024;

/**
 * The /rpc/ws channel: one JSON-RPC message per text frame, the same methods and permissions
 * as POST /rpc, plus push notifications for subscribed topics. A connection is closed at
 * once when its token is revoked or rotated, its login session ends, or a reload makes its
 * credential invalid.
 *
 * Connections that upgraded without credentials are pending until their `auth` frame: they
 * have a short window and a pool of their own (in all and per client address), so idle
 * sockets that never authenticate cannot take the room of authenticated clients.
 */
export class RpcWebSocket {
  readonly #wss: WebSocketServer;
  readonly #connections = new Set<Connection>();
  readonly #subscribers = new Set<Connection>();
  readonly #heartbeat: NodeJS.Timeout;
  readonly #unwatch: (() => void)[];
  /** The bus is followed only while someone subscribes: unheard events cost nothing. */
  #unwatchBus: (() => void) | null = null;
  #authenticated = 0;
  #pending = 0;
  readonly #pendingByAddress = new Map<string, number>();

  constructor(private readonly options: RpcWsOptions) {
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayload,
      perMessageDeflate: false
    });
    // Ping every 30 s; a peer that missed the last pong is gone.
    const alive = new WeakSet<WebSocket>();
    this.#heartbeat = setInterval(() => {
      for (const ws of this.#wss.clients) {
        if (!alive.has(ws)) {
          ws.terminate();
          continue;
        }
        alive.delete(ws);
        ws.ping();
      }
    }, 30_000).unref();
    this.#wss.on('connection', (ws: WebSocket) => {
      alive.add(ws);
      ws.on('pong', () => alive.add(ws));
    });
    this.#unwatch = [
      options.bus.on('credential.revoked', ({ kind, id }) => {
        if (kind === 'rpc') this.closeWhere((a) => a.caller.credentialId === id, 'token revoked');
      })
    ];
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const auth = this.options.authenticate(req);
    if (auth.kind === 'refuse')
      return auth.status === 429
        ? refuse(socket, 429, 'Too Many Requests', {
            'Retry-After': String(retryAfterSeconds(auth.retryAfterMs))
          })
        : refuse(socket, auth.status, auth.status === 404 ? 'Not Found' : 'Unauthorized');
    const limits = this.options.limits();
    const address = req.socket.remoteAddress ?? 'unknown';
    if (auth.kind === 'caller') {
      if (this.#authenticated >= limits.maxConnections)
        return refuse(socket, 503, 'Too many connections');
    } else if ((this.#pendingByAddress.get(address) ?? 0) >= limits.maxPendingPerAddress)
      return refuse(socket, 429, 'Too many unauthenticated connections from this address');
    else if (this.#pending >= limits.maxPending)
      return refuse(socket, 503, 'Too many unauthenticated connections');
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new Connection(ws, this.options, {
        setSubscribed: (c, subscribed) => {
          if (subscribed) this.#subscribers.add(c);
          else this.#subscribers.delete(c);
          this.#followBus();
        },
        promote: () => {
          this.#leavePending(address);
          if (this.#authenticated >= this.options.limits().maxConnections) return false;
          this.#authenticated++;
          return true;
        },
        auth: auth.kind === 'caller' ? auth : null,
        authTimeoutMs: limits.authTimeoutMs,
        address: req.socket.remoteAddress
      });
      if (connection.auth) this.#authenticated++;
      else {
        this.#pending++;
        this.#pendingByAddress.set(address, (this.#pendingByAddress.get(address) ?? 0) + 1);
      }
      this.#connections.add(connection);
      this.options.onCount(this.#wss.clients.size);
      this.#wss.emit('connection', ws, req);
      // Protocol errors (an oversized frame: 1009, bad UTF-8: 1007) close the socket themselves;
      // without a listener they would be thrown and take the process down.
      ws.on('error', (err) => this.options.logger.debug({ err }, 'rpc/ws protocol error'));
      ws.on('close', () => {
        if (connection.auth) this.#authenticated--;
        else if (!connection.promoted) this.#leavePending(address);
        connection.dispose();
        this.#connections.delete(connection);
        this.#subscribers.delete(connection);
        this.#followBus();
        this.options.onCount(this.#wss.clients.size);
      });
    });
  }

  #leavePending(address: string): void {
    this.#pending--;
    const left = (this.#pendingByAddress.get(address) ?? 1) - 1;
    if (left > 0) this.#pendingByAddress.set(address, left);
    else this.#pendingByAddress.delete(address);
  }

  /** Closes the sockets opened under these login sessions (logout, disabled user). */
  closeSessions(sessionIds: string[], reason: string): void {
    const ids = new Set(sessionIds);
    this.closeWhere((a) => a.loginSessionId !== undefined && ids.has(a.loginSessionId), reason);
  }

  /** After a configuration change: tokens removed from the file, RPC disabled, auth changed. */
  revalidate(): void {
    this.closeWhere((a) => !a.stillValid(), 'credential no longer valid');
  }

  closeWhere(predicate: (auth: Authenticated) => boolean, reason: string): void {
    for (const c of this.#connections) if (c.auth && predicate(c.auth)) c.close(AUTH_CLOSE, reason);
  }

  close(): void {
    clearInterval(this.#heartbeat);
    for (const off of this.#unwatch) off();
    this.#unwatchBus?.();
    this.#unwatchBus = null;
    for (const ws of this.#wss.clients) ws.close(1001, 'server shutting down');
    this.#wss.close();
  }

  #followBus(): void {
    if (this.#subscribers.size && !this.#unwatchBus)
      this.#unwatchBus = watchBus(this.options.bus, (push) => this.#publish(push));
    else if (!this.#subscribers.size && this.#unwatchBus) {
      this.#unwatchBus();
      this.#unwatchBus = null;
    }
  }

  #publish(push: Push): void {
    if (!this.#subscribers.size) return;
    let text: string | undefined;
    for (const c of this.#subscribers) {
      if (!c.wants(push)) continue;
      if (c.ws.bufferedAmount > MAX_BUFFERED) {
        c.close(POLICY_CLOSE, 'too slow to read notifications');
        continue;
      }
      text ??= JSON.stringify({
        jsonrpc: '2.0',
        method: 'notify',
        params: { topic: push.topic, data: push.data }
      });
      c.ws.send(text);
    }
  }
}

function refuse(
  socket: Duplex,
  status: number,
  text: string,
  extra: Record<string, string> = {}
): void {
  let headers = status === 401 ? 'WWW-Authenticate: Bearer\r\n' : '';
  for (const [name, value] of Object.entries(extra)) headers += `${name}: ${value}\r\n`;
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\n${headers}Connection: close\r\nContent-Length: 0\r\n\r\n`
  );
}
