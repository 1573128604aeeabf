import { sessionGetInput, sessionIdInput, sessionListInput } from '$lib/contracts/sessions';
import { roleProcedure, router } from '../init';

const viewer = roleProcedure('viewer');
const operator = roleProcedure('operator');

/** Agents' sessions for the console: everyone reads them, operators compact and delete. */
export const sessionsRouter = router({
  list: viewer
    .input(sessionListInput)
    .query(({ ctx, input: { cursor, limit, ...filter } }) =>
      ctx.app.gateway.chatSessions.list(filter, limit, cursor)
    ),
  get: viewer
    .input(sessionGetInput)
    .query(({ ctx, input }) =>
      ctx.app.gateway.chatSessions.get(input.sessionId, input.limit, input.before)
    ),
  compact: operator
    .input(sessionIdInput)
    .mutation(({ ctx, input }) => ctx.app.gateway.chatSessions.compact(input.sessionId, ctx.actor)),
  delete: operator
    .input(sessionIdInput)
    .mutation(({ ctx, input }) => ctx.app.gateway.chatSessions.delete(input.sessionId, ctx.actor))
});
