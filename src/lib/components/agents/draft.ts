import type { AgentView, CreateAgentInput } from '$lib/contracts/agents';

/** The create/edit form's fields, as the inputs hold them (the heartbeat in seconds). */
export interface AgentDraft {
  name: string;
  description: string;
  provider: string;
  model: string;
  systemPrompt: string;
  skills: string[];
  heartbeatSeconds: number;
  channel: string;
}

export function toDraft(agent: AgentView | null): AgentDraft {
  return {
    name: agent?.name ?? '',
    description: agent?.description ?? '',
    provider: agent?.provider ?? 'builtin',
    model: agent?.model ?? '',
    systemPrompt: agent?.systemPrompt ?? '',
    skills: [...(agent?.skills ?? [])],
    heartbeatSeconds: (agent?.heartbeatMs ?? 30_000) / 1000,
    channel: agent?.channel ?? ''
  };
}

/** Blank optional fields go as they are; the server turns them into "not set". */
export function fromDraft(draft: AgentDraft): CreateAgentInput {
  return {
    name: draft.name.trim(),
    description: draft.description,
    provider: draft.provider,
    model: draft.model,
    systemPrompt: draft.systemPrompt,
    skills: draft.skills,
    heartbeatMs: Math.round(draft.heartbeatSeconds * 1000),
    channel: draft.channel
  };
}
