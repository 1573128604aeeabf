import type { SkillInfo } from '$lib/contracts/assistant';

export interface ProviderRequest {
  agentName: string;
  model: string | null;
  systemPrompt: string | null;
  /** Earlier messages of the session, oldest first (after any compaction summary). */
  history: { role: 'user' | 'assistant' | 'system' | 'tool'; content: string }[];
  input: string;
  skills: SkillInfo[];
  runSkill(id: string, params: Record<string, unknown>): Promise<unknown>;
  status(): Record<string, unknown>;
  signal: AbortSignal;
}

export type ProviderChunk =
  | { type: 'delta'; text: string }
  | { type: 'done'; text: string; usage: { prompt: number; completion: number } };

/** How an agent thinks: a stream of reply pieces, then the whole reply with token counts. */
export interface Provider {
  readonly name: string;
  run(request: ProviderRequest): AsyncIterable<ProviderChunk>;
}

/** A rough token count (4 characters a token) for providers that report none. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);
