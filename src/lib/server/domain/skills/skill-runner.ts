import type { SkillLogLine } from '$lib/contracts/assistant';
import type { SkillDefinition } from '$lib/contracts/skills';

export type SkillLog = (stream: SkillLogLine['stream'], text: string) => void;

/** What a finished run gave back: its result and, for a process, its exit code. */
export interface SkillResult {
  output: unknown;
  exitCode: number | null;
}

/** A run that failed with something to record besides the reason (exit code, partial output). */
export class SkillFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null = null,
    readonly output: unknown = null
  ) {
    super(message);
    this.name = 'SkillFailure';
  }
}

/** Runs one kind of defined skill; `signal` aborts on time-out or cancel, and it must stop then. */
export interface SkillRunner<D extends SkillDefinition = SkillDefinition> {
  run(
    definition: D,
    params: Record<string, unknown>,
    context: { runId: string; signal: AbortSignal; log: SkillLog }
  ): Promise<SkillResult>;
  /**
   * At start: removes what runs a previous Berth never finished left behind, of the runs `ours`
   * says this Berth recorded; how many.
   */
  recover?(ours: (runId: string) => boolean): Promise<number>;
}

export type SkillRunners = {
  [K in SkillDefinition['kind']]: SkillRunner<Extract<SkillDefinition, { kind: K }>>;
};
