import type { Agent } from '../agents/agent.definition';
import type { Provider } from './provider';

/** How long a reachability result stands before the next system.health checks again. */
const FRESH_MS = 30_000;
/** Longest a check of one provider may take. */
const CHECK_MS = 3_000;

export interface ProvidersCheck {
  status: 'ok' | 'error';
  detail?: string;
}

/**
 * Whether the providers of the enabled agents can run and, for those that can say (a model
 * endpoint), whether they answer. Reachability is checked lazily: at most once per FRESH_MS,
 * by one check at a time for all callers, each provider bounded by CHECK_MS; system.health
 * in between reads the last result.
 */
export class ProviderHealth {
  #checked = new Map<string, string | null>();
  #checkedAt = 0;
  #running: Promise<void> | null = null;

  constructor(
    private readonly agents: () => Agent[],
    private readonly resolve: (agent: Agent) => Provider
  ) {}

  async check(now = Date.now()): Promise<ProvidersCheck> {
    const problems: string[] = [];
    const reachable = new Map<string, Provider>();
    for (const agent of this.agents()) {
      if (agent.disabled) continue;
      try {
        const provider = this.resolve(agent);
        if (provider.check) reachable.set(agent.provider, provider);
      } catch {
        problems.push(`${agent.name}: provider ${agent.provider} is not available`);
      }
    }
    const known = [...reachable.keys()].every((name) => this.#checked.has(name));
    if (reachable.size && (now - this.#checkedAt >= FRESH_MS || !known)) {
      this.#running ??= this.#probe(reachable).finally(() => (this.#running = null));
      await this.#running;
    }
    for (const name of reachable.keys()) {
      const problem = this.#checked.get(name);
      if (problem) problems.push(`provider ${name} is unreachable: ${problem}`);
    }
    return problems.length ? { status: 'error', detail: problems.join('; ') } : { status: 'ok' };
  }

  async #probe(providers: Map<string, Provider>): Promise<void> {
    const results = await Promise.all(
      [...providers].map(async ([name, provider]) => {
        try {
          await provider.check!(AbortSignal.timeout(CHECK_MS));
          return [name, null] as const;
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          // The provider's own words name it already ("provider x could not reach …").
          return [name, message.replace(new RegExp(`^provider ${name} `), '')] as const;
        }
      })
    );
    this.#checked = new Map(results);
    this.#checkedAt = Date.now();
  }
}
