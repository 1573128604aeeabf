import type { DomainBus } from '../bus';

/**
 * Whether each agent's last finished turn failed (its state shows `error`). Followed from the
 * bus and read from storage once per agent: an agent's state is read at every turn's start and
 * end, and asking storage each time scanned all of the agent's finished turns.
 */
export class LastOutcomes {
  readonly #failed = new Map<string, boolean>();

  constructor(
    bus: DomainBus,
    private readonly storedLastFailed: (agentName: string) => boolean
  ) {
    bus.on('turn.changed', ({ agentName, state }) => {
      if (state === 'completed') this.#failed.set(agentName, false);
      else if (state === 'failed') this.#failed.set(agentName, true);
    });
  }

  lastFailed(agentName: string): boolean {
    let failed = this.#failed.get(agentName);
    if (failed === undefined) {
      failed = this.storedLastFailed(agentName);
      this.#failed.set(agentName, failed);
    }
    return failed;
  }
}
