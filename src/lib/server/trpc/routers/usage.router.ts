import { usageStatsInput, type UsageStats } from '$lib/contracts/usage';
import { roleProcedure, router } from '../init';

/** usage.stats for the Usage page: every signed-in user reads it. */
export const usageRouter = router({
  stats: roleProcedure('viewer')
    .input(usageStatsInput)
    .query(({ ctx, input }): UsageStats =>
      ctx.app.gateway.usage.stats({
        since: input.since,
        until: input.until,
        agentName: input.agent,
        sessionId: input.session,
        credential: input.credential
      })
    )
});
