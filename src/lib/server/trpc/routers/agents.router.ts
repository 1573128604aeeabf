import {
  agentNameInput,
  createAgentInput,
  setAgentDisabledInput,
  updateAgentInput,
  type AgentOptions,
  type AgentView
} from '$lib/contracts/agents';
import { roleProcedure, router } from '../init';

const viewer = roleProcedure('viewer');
const operator = roleProcedure('operator');

/** Agents for the console: everyone signed in reads them, operators change console agents. */
export const agentsRouter = router({
  list: viewer.query(({ ctx }): AgentView[] => ctx.app.gateway.agents.views()),
  options: viewer.query(({ ctx }): AgentOptions => ctx.app.gateway.agents.options()),
  create: operator
    .input(createAgentInput)
    .mutation(({ ctx, input }) => ctx.app.gateway.agents.create(input, ctx.actor)),
  update: operator
    .input(updateAgentInput)
    .mutation(({ ctx, input }) => ctx.app.gateway.agents.update(input, ctx.actor)),
  setDisabled: operator
    .input(setAgentDisabledInput)
    .mutation(({ ctx, input }) =>
      ctx.app.gateway.agents.setDisabled(input.name, input.disabled, ctx.actor)
    ),
  delete: operator.input(agentNameInput).mutation(({ ctx, input }) => {
    ctx.app.gateway.agents.delete(input.name, ctx.actor);
    return { ok: true as const };
  })
});
