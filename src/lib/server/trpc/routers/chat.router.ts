import {
  activityDetailInput,
  activityListInput,
  chatHistoryInput,
  chatSendInput,
  chatStopInput,
  chatTurnsInput
} from '$lib/contracts/chat';
import type { Role } from '$lib/contracts/roles';
import { roleProcedure, router } from '../init';

/**
 * The console's Chat (operators send and stop; everyone reads) and the Activity timeline. The
 * domain checks the roles again; replies stream on the `session:<id>` socket.io channel.
 */
const viewer = roleProcedure('viewer');
const operator = roleProcedure('operator');

function actor(ctx: {
  actor: { id: string | null; email: string | null; ip: string | null };
  user: { role: Role };
}) {
  return { ...ctx.actor, role: ctx.user.role };
}

export const chatRouter = router({
  send: operator
    .input(chatSendInput)
    .mutation(({ ctx, input }) => ctx.app.chat.console.send(actor(ctx), input)),
  stop: operator
    .input(chatStopInput)
    .mutation(({ ctx, input }) => ctx.app.chat.console.stop(actor(ctx), input.turnId)),
  history: viewer
    .input(chatHistoryInput)
    .query(({ ctx, input }) =>
      ctx.app.chat.console.history(actor(ctx), input.sessionId, input.limit, input.before)
    ),
  turns: viewer
    .input(chatTurnsInput)
    .query(({ ctx, input }) =>
      ctx.app.chat.console.turnsOf(actor(ctx), input.sessionId, input.limit, input.cursor)
    )
});

export const activityRouter = router({
  list: viewer
    .input(activityListInput)
    .query(({ ctx, input: { cursor, limit, ...filter } }) =>
      ctx.app.chat.activity.list(actor(ctx), filter, limit, cursor)
    ),
  turn: viewer
    .input(activityDetailInput)
    .query(({ ctx, input }) => ctx.app.chat.activity.turn(actor(ctx), input.id)),
  event: viewer
    .input(activityDetailInput)
    .query(({ ctx, input }) => ctx.app.chat.activity.event(actor(ctx), input.id))
});
