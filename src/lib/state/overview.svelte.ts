import { errorMessage, trpc } from '$lib/client/trpc';
import type { Readiness } from '$lib/contracts/health';

export type SystemInfo = Awaited<ReturnType<typeof trpc.system.info.query>>;

/** Readiness and system facts for the overview, refreshed together. */
export class OverviewState {
  readiness = $state<Readiness | null>(null);
  info = $state<SystemInfo | null>(null);
  readinessError = $state<string | null>(null);
  infoError = $state<string | null>(null);
  checking = $state(false);

  async refresh(): Promise<void> {
    this.checking = true;
    try {
      // Readiness first: checking the engine is what negotiates the API version info reports.
      await this.#load('readiness', () => trpc.system.readiness.query());
      await this.#load('info', () => trpc.system.info.query());
    } finally {
      this.checking = false;
    }
  }

  async #load<K extends 'readiness' | 'info'>(
    key: K,
    query: () => Promise<NonNullable<OverviewState[K]>>
  ): Promise<void> {
    const errorKey = key === 'readiness' ? 'readinessError' : 'infoError';
    try {
      this[key] = await query();
      this[errorKey] = null;
    } catch (err) {
      this[errorKey] = errorMessage(err);
    }
  }
}
