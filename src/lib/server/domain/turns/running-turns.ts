/**
 * Turns running now, per agent. TurnService keeps it; AgentService reads it for an agent's
 * state ("running"). It is built before both, so neither has to be handed the other late.
 */
export class RunningTurns {
  readonly #byAgent = new Map<string, number>();

  of(agentName: string): number {
    return this.#byAgent.get(agentName) ?? 0;
  }

  started(agentName: string): void {
    this.#byAgent.set(agentName, this.of(agentName) + 1);
  }

  ended(agentName: string): void {
    this.#byAgent.set(agentName, this.of(agentName) - 1);
  }
}
