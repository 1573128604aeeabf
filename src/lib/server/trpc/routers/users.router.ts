import {
  changeOwnPasswordInput,
  createUserInput,
  resetPasswordInput,
  setDisabledInput,
  setRoleInput
} from '$lib/contracts/users';
import { roleProcedure, router } from '../init';

const admin = roleProcedure('admin');
const signedIn = roleProcedure('viewer');

export const usersRouter = router({
  list: admin.query(({ ctx }) => ctx.app.users.list()),
  create: admin
    .input(createUserInput)
    .mutation(({ ctx, input }) => ctx.app.users.create(input, ctx.actor)),
  setRole: admin
    .input(setRoleInput)
    .mutation(({ ctx, input }) => ctx.app.users.setRole(input.userId, input.role, ctx.actor)),
  setDisabled: admin
    .input(setDisabledInput)
    .mutation(({ ctx, input }) =>
      ctx.app.users.setDisabled(input.userId, input.disabled, ctx.actor)
    ),
  resetPassword: admin
    .input(resetPasswordInput)
    .mutation(({ ctx, input }) =>
      ctx.app.users.resetPassword(input.userId, input.password, ctx.actor)
    ),
  changeOwnPassword: signedIn
    .input(changeOwnPasswordInput)
    .mutation(({ ctx, input }) =>
      ctx.app.users.changeOwnPassword(
        ctx.user.id,
        input.currentPassword,
        input.newPassword,
        ctx.sessionId,
        ctx.actor
      )
    )
});
