import {
  addOutboundInput,
  outboundAgentInput,
  outboundDeliveriesInput,
  outboundIdInput,
  type OutboundAttemptView,
  type OutboundWebhookView
} from '$lib/contracts/outbound';
import { roleProcedure, router } from '../init';

/**
 * Agents' outbound webhooks: viewers read the endpoints (never a secret) and the deliveries
 * with their tries; operators add (the secret is shown once), remove and resend.
 */
const viewer = roleProcedure('viewer');
const operator = roleProcedure('operator');

export const outboundRouter = router({
  list: viewer.input(outboundAgentInput).query(({ ctx, input }): OutboundWebhookView[] => {
    ctx.app.gateway.agents.require(input.agent);
    return ctx.app.gateway.outbound.list(input.agent);
  }),
  add: operator.input(addOutboundInput).mutation(({ ctx, input }) => {
    ctx.app.gateway.agents.require(input.agent);
    return ctx.app.gateway.outbound.add(input, ctx.actor);
  }),
  remove: operator.input(outboundIdInput).mutation(({ ctx, input }) => {
    ctx.app.gateway.outbound.remove(input.id, ctx.actor);
    return { ok: true as const };
  }),
  deliveries: viewer
    .input(outboundDeliveriesInput)
    .query(({ ctx, input }) =>
      ctx.app.gateway.outbound.deliveries(
        { agentName: input.agent, turnId: input.turnId },
        input.limit,
        input.cursor
      )
    ),
  attempts: viewer
    .input(outboundIdInput)
    .query(({ ctx, input }): OutboundAttemptView[] => ctx.app.gateway.outbound.attempts(input.id)),
  resend: operator
    .input(outboundIdInput)
    .mutation(({ ctx, input }) => ctx.app.gateway.outbound.resend(input.id, ctx.actor))
});
