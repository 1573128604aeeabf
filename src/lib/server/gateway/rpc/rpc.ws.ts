import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { handleMessage, RpcError, RPC_ERRORS, type Dispatch } from './jsonrpc';

export interface RpcWsOptions {
  /** Who is calling, or null to refuse the upgrade with 401. */
  authenticate(req: IncomingMessage): { userId: string; sessionId: string } | null;
  dispatch: Dispatch;
  maxPayload: number;
  maxConnections: number;
  onCount(open: number): void;
}

/** The /rpc/ws channel: one JSON-RPC message per text frame. */
export class RpcWebSocket {
  readonly #wss: WebSocketServer;
  readonly #bySession = new Map<string, Set<WebSocket>>();
  #heartbeat: NodeJS.Timeout;

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
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const who = this.options.authenticate(req);
    if (!who) return refuse(socket, 401, 'Unauthorized');
    if (this.#wss.clients.size >= this.options.maxConnections)
      return refuse(socket, 503, 'Too many connections');
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      this.#track(who.sessionId, ws);
      this.#wss.emit('connection', ws, req);
      ws.on('message', (data: Buffer, isBinary) => {
        if (isBinary) {
          ws.send(
            JSON.stringify({
              jsonrpc: '2.0',
              error: new RpcError(RPC_ERRORS.PARSE, 'frames must be text').toObject(),
              id: null
            })
          );
          return;
        }
        void handleMessage(data.toString('utf8'), this.options.dispatch).then((answer) => {
          if (answer && ws.readyState === ws.OPEN) ws.send(JSON.stringify(answer));
        });
      });
    });
  }

  /** Closes the sockets opened under these login sessions (logout, disabled user). */
  closeSessions(sessionIds: string[], reason: string): void {
    for (const id of sessionIds) {
      for (const ws of this.#bySession.get(id) ?? []) ws.close(4001, reason.slice(0, 100));
    }
  }

  close(): void {
    clearInterval(this.#heartbeat);
    for (const ws of this.#wss.clients) ws.close(1001, 'server shutting down');
    this.#wss.close();
  }

  #track(sessionId: string, ws: WebSocket): void {
    let set = this.#bySession.get(sessionId);
    if (!set) this.#bySession.set(sessionId, (set = new Set()));
    set.add(ws);
    this.options.onCount(this.#wss.clients.size);
    ws.on('close', () => {
      set.delete(ws);
      if (!set.size) this.#bySession.delete(sessionId);
      this.options.onCount(this.#wss.clients.size);
    });
  }
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
