import {
  providerAddSchema,
  providerRefSchema,
  providerUpdateSchema
} from '$lib/contracts/providers';
import type { ProviderActor } from '../../domain/providers/provider-settings.service';
import { roleProcedure, router } from '../init';

/** Settings → Providers: admins only (checked here and in the domain); keys never come back. */
const admin = roleProcedure('admin');

function actor(ctx: {
  actor: { id: string | null; email: string | null; ip: string | null };
  user: { role: ProviderActor['role'] };
}): ProviderActor {
  return { ...ctx.actor, role: ctx.user.role };
}

export const providersRouter = router({
  list: admin.query(({ ctx }) => ctx.app.providerSettings.list(actor(ctx))),
  add: admin
    .input(providerAddSchema)
    .mutation(({ ctx, input }) => ctx.app.providerSettings.add(actor(ctx), input)),
  update: admin
    .input(providerUpdateSchema)
    .mutation(({ ctx, input }) => ctx.app.providerSettings.update(actor(ctx), input)),
  remove: admin
    .input(providerRefSchema)
    .mutation(({ ctx, input }) => ctx.app.providerSettings.remove(actor(ctx), input)),
  test: admin
    .input(providerRefSchema)
    .mutation(({ ctx, input }) => ctx.app.providerSettings.test(actor(ctx), input))
});
