import { trpc } from '$lib/client/trpc';
import type {
  AgentChanged,
  AgentOptions,
  AgentView,
  CreateAgentInput,
  UpdateAgentInput
} from '$lib/contracts/agents';

/** A console row and a config agent may share a name (the row is shadowed): key by both. */
export const agentKey = (a: Pick<AgentView, 'source' | 'name'>): string => `${a.source}:${a.name}`;

/**
 * The Agents page: loaded over tRPC, kept current by mutations and `agent.changed` (states
 * in place; anything else reloads the list, since a change may shadow or unshadow a row).
 */
export class AgentsState {
  agents = $state<AgentView[]>([]);
  options = $state<AgentOptions>({ providers: ['builtin'], skills: [] });
  loaded = $state(false);

  /** With the list the page's `load` sent, it shows at once (no loading state). */
  constructor(initial?: { agents: AgentView[]; options: AgentOptions } | null) {
    if (!initial) return;
    this.agents = initial.agents;
    this.options = initial.options;
    this.loaded = true;
  }

  async load(): Promise<void> {
    const [agents, options] = await Promise.all([
      trpc.agents.list.query(),
      trpc.agents.options.query()
    ]);
    this.agents = agents;
    this.options = options;
    this.loaded = true;
  }

  async refresh(): Promise<void> {
    this.agents = await trpc.agents.list.query();
  }

  /** Resolves once the change shows; a state change needs no request. */
  async applyChange(change: AgentChanged): Promise<void> {
    if (change.change !== 'state') return this.refresh();
    for (const agent of this.agents)
      if (agent.name === change.name && agent.state !== 'shadowed' && change.state)
        agent.state = change.state;
  }

  async create(input: CreateAgentInput): Promise<AgentView> {
    return this.#upsert(await trpc.agents.create.mutate(input));
  }

  async update(input: UpdateAgentInput): Promise<AgentView> {
    return this.#upsert(await trpc.agents.update.mutate(input));
  }

  async setDisabled(name: string, disabled: boolean): Promise<AgentView> {
    return this.#upsert(await trpc.agents.setDisabled.mutate({ name, disabled }));
  }

  async remove(agent: AgentView): Promise<void> {
    await trpc.agents.delete.mutate({ name: agent.name });
    this.agents = this.agents.filter((a) => agentKey(a) !== agentKey(agent));
  }

  #upsert(view: AgentView): AgentView {
    const index = this.agents.findIndex((a) => agentKey(a) === agentKey(view));
    if (index === -1) this.agents.push(view);
    else this.agents[index] = view;
    return view;
  }
}
