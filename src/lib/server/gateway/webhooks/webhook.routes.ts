import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, type FastRoute, type PrefixRoute, type RouteSet } from '../../http/fast-router';
import { setCredentialName } from '../../http/request-context';
import type { GatewayDeps } from '../gateway.deps';
import { GroupCommit } from './group-commit';
import { idempotencyKey } from './idempotency';
import { RateLimiter } from './rate-limiter';
import { agentAction, mappingAction, wakeAction, type WebhookAction } from './webhook.actions';
import { presentedToken } from './webhook.auth';
import { retryAfterSeconds } from '../auth/auth-throttle';
import { queryCarriesToken } from '../auth/query-token';
import { discardBody, readJsonBody } from '../http/body';
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
      commits: new GroupCommit((work) => deps.idempotency.atomically(work))
    };
    states.set(deps, state);
  }
  return state;
}

/**
 * POST {webhooks.path}/wake, /agent and /{mapping}; anything else below the path is 404/405.
 * `enabled` is read per request; the paths follow the config when the table is rebuilt.
 */
export function webhookRoutes(deps: GatewayDeps): RouteSet {
  const { path, mappings } = deps.config.current.webhooks;
  const state = stateFor(deps);
  const post = (name: string, action: WebhookAction): FastRoute => ({
    method: 'POST',
    path: `${path}/${name}`,
    interface: 'webhook',
    handle: (req, res) => handle(deps, state, req, res, action)
  });
  const builtins = new Set(['wake', 'agent']);
  const exact = [
    post('wake', wakeAction),
    post('agent', agentAction),
    ...Object.keys(mappings)
      .filter((name) => !builtins.has(name))
      .map((name) => post(name, mappingAction(name)))
  ];
  const rest: PrefixRoute = {
    prefix: true,
    path,
    interface: 'webhook',
    handle: (req, res) => {
      if (!deps.config.current.webhooks.enabled || req.method === 'POST')
        return handle(deps, state, req, res, null);
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
 * query-string and token checks, and only then the body.
 */
async function handle(
  deps: GatewayDeps,
  { limiter, commits }: HookState,
  req: IncomingMessage,
  res: ServerResponse,
  action: WebhookAction | null
): Promise<void> {
  let bodyRead = false;
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
    const valid = token !== null && deps.credentials.webhookTokenMatches(token);
    const hit = limiter.hit(`${valid ? 'token' : 'invalid'}|${client}`, config.rateLimit);
    if (!hit.allowed)
      throw new WebhookError(429, 'too_many_requests', 'Rate limit exceeded', {
        'Retry-After': String(hit.retryAfterSeconds)
      });
    if (queryCarriesToken(req.url ?? '', (v) => deps.credentials.webhookTokenMatches(v)))
      throw badRequest('Send the token in a header, never in the URL');
    if (!valid) {
      deps.authThrottle.fail(client);
      throw new WebhookError(401, 'unauthorized', token ? 'Invalid token' : 'Missing token', {
        'WWW-Authenticate': 'Bearer'
      });
    }
    setCredentialName(res, 'webhook');
    if (!action) throw new WebhookError(404, 'not_found', 'No webhook at this path');
    const key = idempotencyKey(req.headers);
    bodyRead = true;
    const body = await readJsonBody(req, deps.bodyLimit);
    // Committed (with the others of this event-loop turn) before the answer goes out.
    const answer = await commits.run(() => action(deps, body, req.headers, key));
    sendJson(
      res,
      answer.status,
      answer.body,
      answer.replayed ? { 'Idempotent-Replayed': 'true' } : {},
      // Already batched: the group commit settles in the check phase.
      'now'
    );
  } catch (err) {
    const error = toWebhookError(err, deps.logger);
    if (error.status === 413) error.headers.Connection = 'close';
    else if (!bodyRead) discardBody(req, deps.bodyLimit);
    sendError(res, error);
  }
}
