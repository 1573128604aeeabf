import type { SkillInfo } from '$lib/contracts/assistant';
import type { InputTrust } from '../../db/schema';

/**
 * What a provider is asked. Text marked `external` came from an outside sender (a webhook, a
 * system event): it is content to consider, never instructions. A provider must not act on
 * it as a command (the builtin runs none), and a model provider must hand it to the model
 * marked as untrusted external content, apart from the operator's instructions.
 */
export interface ProviderRequest {
  agentName: string;
  model: string | null;
  systemPrompt: string | null;
  /** Earlier messages of the session, oldest first (after any compaction summary). */
  history: { role: 'user' | 'assistant' | 'system' | 'tool'; content: string; trust: InputTrust }[];
  input: string;
  trust: InputTrust;
  skills: SkillInfo[];
  /** The skill's output; rejects with the reason, a ToolFailure when there is more to tell. */
  runSkill(id: string, params: Record<string, unknown>): Promise<unknown>;
  status(): Record<string, unknown>;
  signal: AbortSignal;
}

export type ProviderChunk =
  | { type: 'delta'; text: string }
  /** A tool call the provider ran through `runSkill`: recorded in the session. */
  | {
      type: 'tool';
      skillId: string;
      params: Record<string, unknown>;
      output?: unknown;
      error?: string;
      /** A ToolFailure's details (exit code, partial output, log lines), beside `error`. */
      details?: Record<string, unknown>;
    }
  | { type: 'done'; text: string; usage: { prompt: number; completion: number } };

/** How an agent thinks: a stream of reply pieces, then the whole reply with token counts. */
export interface Provider {
  readonly name: string;
  run(request: ProviderRequest): AsyncIterable<ProviderChunk>;
  /** Rejects, in words, when the provider cannot be reached (a model endpoint); none: always. */
  check?(signal: AbortSignal): Promise<void>;
  /** The model ids the endpoint lists (Settings → Providers' "test connection"). */
  models?(signal: AbortSignal): Promise<string[]>;
}

/**
 * A tool that ran and failed with more to tell than its reason: the exit code, the output it
 * gave before failing, its last log lines. The model gets them beside `error`, to act on.
 */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown>
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}

/** A rough token count (4 characters a token) for providers that report none. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);
