import type { IncomingMessage, ServerResponse } from 'node:http';
import { isDomainError } from '../../errors';
import { sendJson } from '../../http/fast-router';
import { retryAfterSeconds } from '../auth/auth-throttle';
import type { GatewayDeps } from '../gateway.deps';
import { discardBody, readJsonBody } from '../http/body';
import type { RateLimiter } from './rate-limiter';
import { presentedToken } from './webhook.auth';
import { sendError, toWebhookError, WebhookError } from './webhook.errors';

/** The path below `{webhooks.path}/` where the wizard's captures answer. */
export const CAPTURE_SEGMENT = 'capture/';

/**
 * POST {webhooks.path}/capture/<id>: the wizard's one-shot endpoint. Same order as a webhook
 * (address throttle, rate limit, then the token, then the body), but the token is the
 * capture's own, the delivery reaches no agent and it is not written to the delivery log:
 * the wizard reads it from memory (webhooks.capture.get) until the capture expires.
 */
export async function handleCapture(
  deps: GatewayDeps,
  limiter: RateLimiter,
  id: string,
  req: IncomingMessage,
  res: ServerResponse
): Promise<void> {
  let bodyRead = false;
  const client = req.socket.remoteAddress ?? 'unknown';
  try {
    const config = deps.config.current.webhooks;
    if (!config.enabled) throw new WebhookError(404, 'not_found', 'Not found');
    if (req.method !== 'POST')
      throw new WebhookError(405, 'method_not_allowed', 'Webhooks accept POST only', {
        Allow: 'POST'
      });
    const wait = deps.authThrottle.retryAfterMs(client);
    if (wait)
      throw new WebhookError(429, 'too_many_requests', 'Too many failed authentications', {
        'Retry-After': String(retryAfterSeconds(wait))
      });
    const hit = limiter.hit(`capture|${client}`, config.rateLimit);
    if (!hit.allowed)
      throw new WebhookError(429, 'too_many_requests', 'Rate limit exceeded', {
        'Retry-After': String(hit.retryAfterSeconds)
      });
    const token = presentedToken(req.headers);
    // The token first, on no body: a wrong one costs nothing to refuse.
    deps.webhooks.captures.receive(id, token, req.headers, undefined, { check: true });
    bodyRead = true;
    const body = await readJsonBody(req, deps.bodyLimit);
    deps.webhooks.captures.receive(id, token, req.headers, body);
    sendJson(res, 200, { status: 200, message: 'Captured: back to the wizard' });
  } catch (err) {
    if (isDomainError(err) && err.code === 'UNAUTHENTICATED') deps.authThrottle.fail(client);
    const failure = toWebhookError(err, deps.logger);
    if (failure.status === 401) failure.headers['WWW-Authenticate'] = 'Bearer';
    if (failure.status === 413) failure.headers.Connection = 'close';
    else if (!bodyRead) discardBody(req, deps.bodyLimit);
    sendError(res, failure);
  }
}
