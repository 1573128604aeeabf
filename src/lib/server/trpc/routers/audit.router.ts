import { auditListInput } from '$lib/contracts/audit';
import { roleProcedure, router } from '../init';

export const auditRouter = router({
  list: roleProcedure('admin')
    .input(auditListInput)
    .query(({ ctx, input }) => ctx.app.audit.list(input.limit, input.before, input))
});
