import type { IncomingHttpHeaders } from 'node:http';
import type { BerthConfig } from '../../config/config.schema';
import type { Answer } from '../../domain/access/idempotency.service';
import type { GatewayDeps } from '../gateway.deps';
import type { ActiveMapping } from '../../domain/webhooks/webhook-mapping.service';
import { badRequest, WebhookError } from './webhook.errors';
import { agentBody, parseBody, wakeBody, type AgentBody } from './webhook.schemas';

/** What a webhook route does once the request is authenticated and its body read. */
export type WebhookAction = (
  deps: GatewayDeps,
  body: unknown,
  headers: IncomingHttpHeaders,
  idempotencyKey: string | null
) => Answer & { replayed: boolean };

export const wakeAction: WebhookAction = (deps, raw, _headers, key) => {
  const body = parseBody(wakeBody, raw);
  const agentName = pickAgent(deps, body.agent);
  return deps.idempotency.once('webhook:wake', key, () => {
    const event = deps.events.wake({
      agentName,
      text: body.text,
      metadata: body.metadata ?? null,
      source: 'webhook',
      mode: body.mode
    });
    return ok({ message: `Event queued for agent ${agentName}`, eventId: event.eventId });
  });
};

export const agentAction: WebhookAction = (deps, raw, _headers, key) => {
  const body = parseBody(agentBody, raw);
  checkOverrides(deps.config.current.webhooks, body);
  const agentName = pickAgent(deps, body.agent);
  return deps.idempotency.once('webhook:agent', key, () => {
    const { turnId, sessionId } = deps.turns.enqueue({
      agentName,
      // An isolated turn: a session of its own unless the caller names one.
      sessionKey: body.session ?? `webhook:${crypto.randomUUID()}`,
      input: body.message,
      source: 'webhook',
      trust: 'external',
      model: body.model ?? null,
      channel: body.channel ?? null,
      context: body.context ?? null,
      delivery: body.delivery ?? 'none',
      credential: 'webhook'
    });
    return ok({ message: `Turn queued for agent ${agentName}`, sessionId, turnId });
  });
};

/** A mapping found per request (domain/webhooks): the route never holds a table of them. */
export function mappingAction(active: ActiveMapping): WebhookAction {
  const { name } = active;
  return (deps, body, headers, key) =>
    deps.idempotency.once(`webhook:mapping:${name}`, key, () => {
      const outcome = deps.webhooks.mappings.deliver(active, body, headers);
      if (outcome.kind === 'ignored') return ok({ message: 'ignored', matched: false });
      if (outcome.kind === 'agent-missing')
        throw new WebhookError(500, 'internal', `Mapping ${name} names an unknown agent`);
      const { agentName, sessionId, turnId } = outcome;
      return ok({
        message: `Mapping ${name} matched; turn queued for agent ${agentName}`,
        mapping: name,
        sessionId,
        turnId
      });
    });
}

/**
 * A sender of /agent may choose only what the config lets it: a session under one of
 * `webhooks.allowedSessionPrefixes` (by default `webhook:`, so never `main`, `rest:…` or
 * `rpc:…`, another credential's conversation) and a model from `webhooks.allowedModels`.
 */
function checkOverrides(
  config: Pick<BerthConfig['webhooks'], 'allowedSessionPrefixes' | 'allowedModels'>,
  body: Pick<AgentBody, 'session' | 'model'>
): void {
  const prefixes = config.allowedSessionPrefixes;
  if (body.session !== undefined && !prefixes.some((p) => body.session!.startsWith(p)))
    throw badRequest(
      prefixes.length
        ? `session ${body.session} is not allowed: it must start with ${prefixes.join(' or ')} (webhooks.allowedSessionPrefixes)`
        : 'session: naming a session is not allowed (webhooks.allowedSessionPrefixes is empty)'
    );
  const models = config.allowedModels;
  if (body.model !== undefined && !models.includes('*') && !models.includes(body.model))
    throw badRequest(
      models.length
        ? `model ${body.model} is not allowed: it must be one of ${models.join(', ')} (webhooks.allowedModels)`
        : `model: choosing the model is not allowed (webhooks.allowedModels is empty)`
    );
}

const ok = (fields: Record<string, unknown>): Answer => ({
  status: 200,
  body: { status: 200, ...fields }
});

/** The named agent, or the domain's default when the sender names none; unknown → 400. */
function pickAgent(deps: GatewayDeps, requested: string | undefined): string {
  return deps.agents.resolveTarget(requested).name;
}
