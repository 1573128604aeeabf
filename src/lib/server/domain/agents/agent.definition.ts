import type { z } from 'zod';
import type { AgentRecord } from '$lib/contracts/agents';
import type { BerthConfig } from '../../config/config.schema';
import type { AgentRow } from '../../db/repositories/agent.repository';
import { invalid } from '../../errors';

export type Agent = AgentRecord;

type Fields = Pick<Agent, 'name' | 'description' | 'provider' | 'skills' | 'heartbeatMs'> & {
  model?: string | null;
  systemPrompt?: string | null;
  channel?: string | null;
};

/** One shape for both sources, keys in one order, so two definitions compare as JSON. */
function define(a: Fields, source: Agent['source'], disabled: boolean): Agent {
  return {
    name: a.name,
    description: a.description,
    provider: a.provider,
    model: a.model ?? null,
    systemPrompt: a.systemPrompt ?? null,
    skills: [...a.skills],
    heartbeatMs: a.heartbeatMs,
    channel: a.channel ?? null,
    disabled,
    source
  };
}

export function configAgents(config: BerthConfig): Map<string, Agent> {
  return new Map(config.agents.map((a) => [a.name, define(a, 'config', false)]));
}

export function rowAgent(row: AgentRow): Agent {
  return define(row, 'console', row.disabled);
}

export const sameAgent = (a: Agent, b: Agent): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Parses with a contract schema; the domain answers INVALID naming each field at fault. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw invalid(
    parsed.error.issues
      .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
      .join('; ')
  );
}
