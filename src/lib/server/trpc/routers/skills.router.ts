import {
  runSkillInput,
  saveSkillInput,
  skillFromBuildInput,
  skillIdInput,
  skillRunsInput,
  type SkillRunsPage,
  type SkillView
} from '$lib/contracts/skills';
import type { SkillRunRecord } from '$lib/contracts/assistant';
import { z } from 'zod';
import type { SkillActor } from '../../domain/skills/skill-actor';
import { roleProcedure, router } from '../init';

/**
 * Skills: viewers list them and read runs; operators run, save and delete console skills.
 * A run's lines stream over socket.io (`skill.run:<id>`). Roles are checked here and again in
 * the domain.
 */
const viewer = roleProcedure('viewer');
const operator = roleProcedure('operator');

function actor(ctx: {
  actor: { id: string | null; email: string | null; ip: string | null };
  user: { role: SkillActor['role'] };
}): SkillActor {
  return { ...ctx.actor, role: ctx.user.role };
}

export const skillsRouter = router({
  list: viewer.query(({ ctx }): SkillView[] => ctx.app.gateway.skills.views(actor(ctx))),
  runs: viewer
    .input(skillRunsInput)
    .query(({ ctx, input }): SkillRunsPage => ctx.app.gateway.skills.runsPage(input, actor(ctx))),
  getRun: viewer
    .input(z.object({ runId: z.string().min(1).max(100) }))
    .query(({ ctx, input }): SkillRunRecord =>
      ctx.app.gateway.skills.getRun(input.runId, actor(ctx))
    ),
  trigger: operator
    .input(runSkillInput)
    .mutation(({ ctx, input }) => ctx.app.gateway.skills.run(input, actor(ctx))),
  save: operator
    .input(saveSkillInput)
    .mutation(({ ctx, input }): SkillView => ctx.app.gateway.skills.save(input, actor(ctx))),
  fromBuild: operator
    .input(skillFromBuildInput)
    .mutation(({ ctx, input }): SkillView =>
      ctx.app.gateway.skills.fromBuild(input, actor(ctx), ctx.app.buildfiles.builds)
    ),
  remove: operator.input(skillIdInput).mutation(({ ctx, input }) => {
    ctx.app.gateway.skills.remove(input.id, actor(ctx));
    return { ok: true as const };
  })
});
