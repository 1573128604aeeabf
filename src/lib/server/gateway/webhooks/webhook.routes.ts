import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, type FastRoute, type PrefixRoute, type RouteSet } from '../../http/fast-router';
import { setCredentialName } from '../../http/request-context';
import type { DeliveryKind } from '$lib/contracts/webhooks';
import type { GatewayDeps } from '../gateway.deps';
import { isFinal } from '../../domain/turns/turn.service';
import { GroupCommit } from './group-commit';
import { idempotencyKey } from './idempotency';
import { RateLimiter } from './rate-limiter';
import { CAPTURE_SEGMENT, handleCapture } from './capture.route';
import { agentAction, mappingAction, wakeAction, type WebhookAction } from './webhook.actions';
import { presentedSignature, presentedToken } from './webhook.auth';
import { retryAfterSeconds } from '../auth/auth-throttle';
import { queryCarriesToken } from '../auth/query-token';
import { discardBody, parseJsonBody, readJsonBody, readRawBody } from '../http/body';
import { badRequest, sendError, toWebhookError, WebhookError } from './webhook.errors';

interface HookState {
  limiter: RateLimiter;
  commits: GroupCommit;
}

/** Counters outlive a routing-table rebuild (config reload), so a reload resets no limit. */
const states = new WeakMap<GatewayDeps, HookState>();

function stateFor(deps: GatewayDeps): HookState {
  let state = states.get(deps);
  if (!state) {
    state = {
      limiter: new RateLimiter(),
      // One transaction a batch, its events written together as it ends.
      commits: new GroupCommit((work) =>
        deps.idempotency.atomically(() => deps.events.together(work))
      )
    };
    states.set(deps, state);
  }
  return state;
}

/** How long /agent's `wait: true` holds the answer unless `waitMs` says otherwise. */
const DEFAULT_WAIT_MS = 30_000;

/**
 * /agent with `wait: true`: the answer waits for the turn to end, at most `waitMs` (default
 * 30 s, capped by webhooks.maxWaitMs): 200 with the result when it ended, 202 otherwise.
 */
async function waitForTurn<A extends { status: number; body: Record<string, unknown> }>(
  deps: GatewayDeps,
  body: unknown,
  answer: A
): Promise<A> {
  const asked = body as { wait?: unknown; waitMs?: unknown };
  const turnId = answer.body.turnId;
  if (asked.wait !== true || answer.status !== 200 || typeof turnId !== 'string') return answer;
  const ms = Math.min(
    typeof asked.waitMs === 'number' ? asked.waitMs : DEFAULT_WAIT_MS,
    deps.config.current.webhooks.maxWaitMs
  );
  const turn = await deps.turns.waitFor(turnId, ms);
  if (!isFinal(turn.state))
    return { ...answer, status: 202, body: { ...answer.body, status: 202, state: turn.state } };
  return {
    ...answer,
    body: {
      ...answer.body,
      state: turn.state,
      result: turn.result,
      error: turn.error,
      usage: turn.usage
    }
  };
}

/** Where a request went: a built-in route or a mapping's name (found or not). */
interface Target {
  kind: DeliveryKind;
  name: string;
  action: WebhookAction | null;
}

/** A name as the log keeps it: a path below the webhook path, cut short. */
const NAME_MAX = 64;

/**
 * POST {webhooks.path}/wake and /agent; any other POST below the path is a mapping's, found
 * per request in the mapping service's in-memory map (so one created, changed or deleted in the
 * console answers at once); unknown ones are 404, other methods 405. `enabled` is read per
 * request; the path follows the config when the table is rebuilt.
 */
export function webhookRoutes(deps: GatewayDeps): RouteSet {
  const { path } = deps.config.current.webhooks;
  const state = stateFor(deps);
  const post = (name: 'wake' | 'agent', action: WebhookAction): FastRoute => ({
    method: 'POST',
    path: `${path}/${name}`,
    interface: 'webhook',
    handle: (req, res) => handle(deps, state, req, res, () => ({ kind: name, name, action }))
  });
  const exact = [post('wake', wakeAction), post('agent', agentAction)];
  const below = path.length + 1;
  const rest: PrefixRoute = {
    prefix: true,
    path,
    interface: 'webhook',
    handle: (req, res, pathname) => {
      const name = pathname.slice(below);
      if (name.startsWith(CAPTURE_SEGMENT))
        return handleCapture(deps, state.limiter, name.slice(CAPTURE_SEGMENT.length), req, res);
      if (!deps.config.current.webhooks.enabled || req.method === 'POST')
        return handle(deps, state, req, res, () => {
          const active = name.includes('/') ? undefined : deps.webhooks.mappings.find(name);
          return {
            kind: 'mapping',
            name: name.slice(0, NAME_MAX),
            action: active ? mappingAction(active) : null
          };
        });
      discardBody(req, deps.bodyLimit);
      sendError(
        res,
        new WebhookError(405, 'method_not_allowed', 'Webhooks accept POST only', { Allow: 'POST' })
      );
    }
  };
  return { exact, prefix: [rest] };
}

/**
 * The order matters: an address past its failed authentications is refused before anything
 * else; then counted before anything is read (failed authentications too), then the
 * query-string and token checks, and only then the body. A request with no token but GitHub's
 * `X-Hub-Signature-256` is the exception: its raw body (within the body limit) is read first,
 * since the signature covers it; only such requests pay for HMACs. Each request is reported to the
 * delivery log once it identifies a sender (a valid token, or a wrong one within the rate
 * limit): refusals of a flood are not, so a flood cannot push real deliveries out of the log.
 */
async function handle(
  deps: GatewayDeps,
  { limiter, commits }: HookState,
  req: IncomingMessage,
  res: ServerResponse,
  resolve: () => Target
): Promise<void> {
  const receivedAt = Date.now();
  const started = performance.now();
  let logged = false;
  let target: Target | null = null;
  let body: unknown;
  let bodyRead = false;
  let status: number;
  let answer: Record<string, unknown> | null = null;
  let error: string | null = null;
  try {
    const config = deps.config.current.webhooks;
    if (!config.enabled) throw new WebhookError(404, 'not_found', 'Not found');
    const client = req.socket.remoteAddress ?? 'unknown';
    const wait = deps.authThrottle.retryAfterMs(client);
    if (wait)
      throw new WebhookError(
        429,
        'too_many_requests',
        'Too many failed authentications from this address',
        { 'Retry-After': String(retryAfterSeconds(wait)) }
      );
    const token = presentedToken(req.headers);
    const signature = token === null ? presentedSignature(req.headers) : null;
    let credential = token === null ? null : deps.webhooks.tokens.authenticate(token);
    logged = credential !== null;
    // Signed requests are judged only once their body is read: counted in their own bucket.
    const bucket = credential !== null ? 'token' : signature ? 'signed' : 'invalid';
    const hit = limiter.hit(`${bucket}|${client}`, config.rateLimit);
    if (!hit.allowed)
      throw new WebhookError(429, 'too_many_requests', 'Rate limit exceeded', {
        'Retry-After': String(hit.retryAfterSeconds)
      });
    logged = true;
    target = resolve();
    if (queryCarriesToken(req.url ?? '', (v) => deps.webhooks.tokens.matches(v)))
      throw badRequest('Send the token in a header, never in the URL');
    let raw: Buffer | null = null;
    // Only a well-formed signature, with a token that signs, gets its body read unauthenticated.
    if (signature?.length && deps.webhooks.tokens.signs) {
      bodyRead = true;
      raw = await readRawBody(req, deps.bodyLimit);
      credential = deps.webhooks.tokens.authenticateSignature(signature, raw);
    }
    if (credential === null) {
      // A wrong token counts against the address; a wrong signature does not: GitHub posts
      // every repository's deliveries from a few shared addresses, and a stranger's webhook
      // aimed here must not lock out the right ones (an HMAC cannot be guessed anyway).
      if (!signature) deps.authThrottle.fail(client);
      const presented = token !== null || signature !== null;
      throw new WebhookError(401, 'unauthorized', presented ? 'Invalid token' : 'Missing token', {
        'WWW-Authenticate': 'Bearer'
      });
    }
    setCredentialName(res, 'webhook');
    const { action } = target;
    if (!action) throw new WebhookError(404, 'not_found', 'No webhook at this path');
    const key = idempotencyKey(req.headers);
    bodyRead = true;
    body = raw ? parseJsonBody(req, raw) : await readJsonBody(req, deps.bodyLimit);
    // Committed (with the others of this event-loop turn) before the answer goes out.
    let result = await commits.run(() => action(deps, body, req.headers, key));
    if (target.kind === 'agent') result = await waitForTurn(deps, body, result);
    status = result.status;
    answer = result.body;
    sendJson(
      res,
      result.status,
      result.body,
      result.replayed ? { 'Idempotent-Replayed': 'true' } : {},
      // Already batched: the group commit settles in the check phase.
      'now'
    );
  } catch (err) {
    const failure = toWebhookError(err, deps.logger);
    status = failure.status;
    error = failure.message;
    if (failure.status === 413) failure.headers.Connection = 'close';
    else if (!bodyRead) discardBody(req, deps.bodyLimit);
    sendError(res, failure);
  }
  if (logged) {
    target ??= resolve();
    deps.webhooks.deliveries.record({
      receivedAt,
      kind: target.kind,
      mapping: target.name,
      status,
      // A mapping's 200 says `matched: false` when it ignored the delivery.
      matched: target.kind === 'mapping' && answer ? answer.matched !== false : null,
      eventId: typeof answer?.eventId === 'string' ? answer.eventId : null,
      turnId: typeof answer?.turnId === 'string' ? answer.turnId : null,
      durationMs: performance.now() - started,
      body,
      headers: req.headers,
      error
    });
  }
}
