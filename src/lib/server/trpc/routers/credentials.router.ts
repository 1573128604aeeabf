import { z } from 'zod';
import { roleProcedure, router } from '../init';

// Minimal RPC token procedures for the console; the Tokens page's router supersedes this.
const admin = roleProcedure('admin');

export const credentialsRouter = router({
  rpcTokens: router({
    list: admin.query(({ ctx }) => ctx.app.gateway.credentials.listRpcTokens()),
    create: admin
      .input(
        z.strictObject({
          name: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, . _ - only'),
          permissions: z.array(z.string().min(1).max(100)).min(1).max(100)
        })
      )
      .mutation(({ ctx, input }) =>
        ctx.app.gateway.credentials.createRpcToken(input.name, input.permissions, ctx.actor)
      ),
    rotate: admin
      .input(z.strictObject({ id: z.string().min(1) }))
      .mutation(({ ctx, input }) =>
        ctx.app.gateway.credentials.rotateRpcToken(input.id, ctx.actor)
      ),
    revoke: admin.input(z.strictObject({ id: z.string().min(1) })).mutation(({ ctx, input }) => {
      ctx.app.gateway.credentials.revokeRpcToken(input.id, ctx.actor);
      return { id: input.id, revoked: true };
    })
  })
});
