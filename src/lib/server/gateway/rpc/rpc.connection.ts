import type { WebSocket } from 'ws';
import { MAX_TOPICS } from '$lib/contracts/rpc-topics';
import { depthExceeds, MAX_JSON_DEPTH } from '../http/body';
import {
  errorResponse,
  handleMessage,
  RpcError,
  RPC_ERRORS,
  validateRequest,
  type RpcAnswer
} from './jsonrpc';
import type { UpgradeAuth } from './rpc.auth';
import { InFlight } from './rpc.inflight';
import type { PushChannel } from './rpc.methods';
import { topicMatches, type Push } from './rpc.topics';
import type { RpcWsOptions } from './rpc.ws';

export type Authenticated = Extract<UpgradeAuth, { kind: 'caller' }>;

/**
 * Close codes: 4001 authentication (missing, failed, revoked); 1008 policy (slow, flooding);
 * 1003 a binary frame; 1013 no room left for one more authenticated connection.
 */
export const AUTH_CLOSE = 4001;
export const POLICY_CLOSE = 1008;
const UNSUPPORTED_CLOSE = 1003;
const TRY_LATER_CLOSE = 1013;
/** How long a pending socket closed by the server may take over its closing handshake. */
const PENDING_CLOSE_GRACE_MS = 1000;

/**
 * One /rpc/ws connection: its `auth` frame when it came without credentials, its JSON-RPC
 * messages (answered at most `maxInFlight` at once), its topics and its closing.
 */
export interface ConnectionHooks {
  setSubscribed: (c: Connection, subscribed: boolean) => void;
  /** A pending connection authenticated: moves it to the authenticated pool, if there is room. */
  promote: () => boolean;
  auth: Authenticated | null;
  authTimeoutMs: number;
  /** The client's address, which failed authentications count against. */
  address: string | undefined;
}

export class Connection implements PushChannel {
  readonly #topics = new Set<string>();
  #agentName: string | undefined;
  #closed = false;
  #authTimer: NodeJS.Timeout | undefined;
  readonly #gate: InFlight<string>;
  readonly #setSubscribed: ConnectionHooks['setSubscribed'];
  readonly #promote: ConnectionHooks['promote'];
  readonly #address: string | undefined;
  auth: Authenticated | null;
  /** Left the pending pool (authenticated, perhaps refused for want of room). */
  promoted = false;

  constructor(
    readonly ws: WebSocket,
    private readonly options: RpcWsOptions,
    hooks: ConnectionHooks
  ) {
    this.auth = hooks.auth;
    this.#setSubscribed = hooks.setSubscribed;
    this.#promote = hooks.promote;
    this.#address = hooks.address;
    this.#gate = new InFlight<string>({
      max: options.maxInFlight ?? 32,
      // What one socket read can hold beyond the bound; a client ignoring backpressure is cut.
      maxQueued: 4096,
      run: (text) => this.#answer(text),
      pause: () => ws.pause(),
      resume: () => ws.resume(),
      overflow: () => this.close(POLICY_CLOSE, 'too many requests queued')
    });
    if (!this.auth)
      this.#authTimer = setTimeout(
        () => this.close(AUTH_CLOSE, 'authentication required'),
        hooks.authTimeoutMs
      );
    ws.on('message', (data: Buffer, isBinary) => {
      if (this.#closed) return;
      if (isBinary) return this.close(UNSUPPORTED_CLOSE, 'frames must be text');
      const text = data.toString('utf8');
      if (!this.auth) return this.#authenticate(text);
      this.#gate.push(text);
    });
  }

  subscribe(topics: string[], agentName?: string): string[] {
    const next = new Set([...this.#topics, ...topics]);
    if (next.size > MAX_TOPICS)
      throw new RpcError(RPC_ERRORS.INVALID_PARAMS, `topics: at most ${MAX_TOPICS} per connection`);
    for (const t of topics) this.#topics.add(t);
    if (agentName !== undefined) this.#agentName = agentName;
    this.#setSubscribed(this, true);
    return [...this.#topics];
  }

  unsubscribe(topics?: string[]): string[] {
    if (topics) for (const t of topics) this.#topics.delete(t);
    else this.#topics.clear();
    if (!this.#topics.size) {
      this.#agentName = undefined;
      this.#setSubscribed(this, false);
    }
    return [...this.#topics];
  }

  wants(push: Push): boolean {
    if (this.#closed) return false;
    if (this.#agentName !== undefined && this.#agentName !== push.agentName) return false;
    for (const pattern of this.#topics) if (topicMatches(pattern, push.topic)) return true;
    return false;
  }

  close(code: number, reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#setSubscribed(this, false);
    this.ws.close(code, reason.slice(0, 100));
    // A peer that never authenticated gets no 30 s closing handshake to keep its place with.
    if (!this.auth) setTimeout(() => this.ws.terminate(), PENDING_CLOSE_GRACE_MS).unref();
  }

  dispose(): void {
    this.#closed = true;
    clearTimeout(this.#authTimer);
  }

  async #answer(text: string): Promise<void> {
    try {
      const answer = await handleMessage(text, (call) => {
        // Frames already read when a token was revoked must not run.
        if (this.#closed || !this.auth)
          return Promise.reject(new RpcError(RPC_ERRORS.AUTH, 'the connection is closing'));
        if (call.method === 'auth')
          return Promise.reject(new RpcError(RPC_ERRORS.INVALID_REQUEST, 'already authenticated'));
        return this.options.dispatch(call, this.auth.caller, this);
      });
      this.#send(answer);
    } catch (err) {
      this.options.logger.error({ err }, 'rpc/ws message failed');
    }
  }

  /** A connection opened without credentials: its first frame must be `auth {token}`. */
  #authenticate(text: string): void {
    let call: ReturnType<typeof validateRequest> | undefined;
    if (!depthExceeds(text, MAX_JSON_DEPTH)) {
      try {
        call = validateRequest(JSON.parse(text));
      } catch {
        call = undefined;
      }
    }
    const request = call && !('jsonrpc' in call) ? call : undefined;
    const token = request?.method === 'auth' ? request.params.token : undefined;
    const auth = this.options.authenticateFrame(
      typeof token === 'string' ? token : undefined,
      this.#address
    );
    if (auth.kind === 'caller') {
      clearTimeout(this.#authTimer);
      this.promoted = true;
      if (!this.#promote()) {
        this.#send(
          errorResponse(
            request!.notification ? null : request!.id,
            new RpcError(RPC_ERRORS.UNAVAILABLE, 'too many connections; try again later')
          )
        );
        return this.close(TRY_LATER_CLOSE, 'too many connections');
      }
      this.auth = auth;
      if (!request!.notification)
        this.#send({
          jsonrpc: '2.0',
          result: { authenticated: true, name: auth.caller.name },
          id: request!.id
        });
      return;
    }
    const id = request && !request.notification ? request.id : null;
    if (auth.status === 429) {
      this.#send(
        errorResponse(
          id,
          new RpcError(RPC_ERRORS.TOO_MANY, 'too many failed authentications from this address', {
            retryAfterMs: auth.retryAfterMs
          })
        )
      );
      return this.close(POLICY_CLOSE, 'too many failed authentications');
    }
    this.#send(
      errorResponse(
        id,
        new RpcError(
          RPC_ERRORS.AUTH,
          request?.method === 'auth'
            ? 'invalid token'
            : 'authenticate first: {"jsonrpc":"2.0","method":"auth","params":{"token":"…"},"id":1}'
        )
      )
    );
    this.close(AUTH_CLOSE, 'authentication failed');
  }

  #send(answer: RpcAnswer): void {
    if (answer && this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(answer));
  }
}
