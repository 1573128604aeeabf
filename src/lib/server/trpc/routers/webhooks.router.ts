import {
  captureIdInput,
  createWebhookTokenInput,
  testDeliveryInput,
  deliveryIdInput,
  listDeliveriesInput,
  mappingNameInput,
  saveMappingInput,
  webhookTokenIdInput,
  type DeliveryDetail,
  type DeliverySummary,
  type MappingView,
  type WebhookTokenView
} from '$lib/contracts/webhooks';
import type { WebhookActor } from '../../domain/webhooks/webhook-actor';
import { roleProcedure, router } from '../init';

/**
 * Webhook mappings (viewers read, operators change), webhook tokens (admins; the secret shown
 * once), the delivery log (viewers read, operators re-run and send test deliveries) and the
 * wizard's capture endpoint (operators). Roles are checked here and
 * again in the domain.
 */
const viewer = roleProcedure('viewer');
const operator = roleProcedure('operator');
const admin = roleProcedure('admin');

function actor(ctx: {
  actor: { id: string | null; email: string | null; ip: string | null };
  user: { role: WebhookActor['role'] };
}): WebhookActor {
  return { ...ctx.actor, role: ctx.user.role };
}

const mappings = router({
  list: viewer.query(({ ctx }): MappingView[] =>
    ctx.app.gateway.webhooks.mappings.list(actor(ctx))
  ),
  create: operator
    .input(saveMappingInput)
    .mutation(({ ctx, input }) => ctx.app.gateway.webhooks.mappings.create(input, actor(ctx))),
  update: operator
    .input(saveMappingInput)
    .mutation(({ ctx, input }) => ctx.app.gateway.webhooks.mappings.update(input, actor(ctx))),
  delete: operator.input(mappingNameInput).mutation(({ ctx, input }) => {
    ctx.app.gateway.webhooks.mappings.delete(input.name, actor(ctx));
    return { ok: true as const };
  })
});

const tokens = router({
  list: admin.query(({ ctx }): WebhookTokenView[] =>
    ctx.app.gateway.webhooks.tokens.list(actor(ctx))
  ),
  create: admin
    .input(createWebhookTokenInput)
    .mutation(({ ctx, input }) =>
      ctx.app.gateway.webhooks.tokens.create(input.name, actor(ctx), input.signing)
    ),
  rotate: admin
    .input(webhookTokenIdInput)
    .mutation(({ ctx, input }) => ctx.app.gateway.webhooks.tokens.rotate(input.id, actor(ctx))),
  revoke: admin.input(webhookTokenIdInput).mutation(({ ctx, input }) => {
    ctx.app.gateway.webhooks.tokens.revoke(input.id, actor(ctx));
    return { ok: true as const };
  })
});

const deliveries = router({
  list: viewer
    .input(listDeliveriesInput)
    .query(({ ctx, input }): DeliverySummary[] =>
      ctx.app.gateway.webhooks.deliveries.list(actor(ctx), input)
    ),
  get: viewer
    .input(deliveryIdInput)
    .query(({ ctx, input }): DeliveryDetail =>
      ctx.app.gateway.webhooks.deliveries.get(actor(ctx), input.id)
    ),
  rerun: operator
    .input(deliveryIdInput)
    .mutation(({ ctx, input }) => ctx.app.gateway.webhooks.deliveries.rerun(actor(ctx), input.id)),
  test: operator
    .input(testDeliveryInput)
    .mutation(({ ctx, input }) => ctx.app.gateway.webhooks.deliveries.test(actor(ctx), input))
});

/**
 * The wizard's one-shot capture endpoint: its opener follows `webhook.capture:<id>` and reads it
 * here once on each (re)join.
 */
const capture = router({
  open: operator.mutation(({ ctx }) => ctx.app.gateway.webhooks.captures.open(actor(ctx))),
  get: operator
    .input(captureIdInput)
    .query(({ ctx, input }) => ctx.app.gateway.webhooks.captures.status(actor(ctx), input.id)),
  close: operator.input(captureIdInput).mutation(({ ctx, input }) => {
    ctx.app.gateway.webhooks.captures.close(actor(ctx), input.id);
    return { ok: true as const };
  })
});

/** Whether the routes answer at all, and where: the page says so when they are off. */
const status = viewer.query(({ ctx }) => ({
  enabled: ctx.app.config.current.webhooks.enabled,
  path: ctx.app.config.current.webhooks.path
}));

export const webhooksRouter = router({ status, mappings, tokens, deliveries, capture });
