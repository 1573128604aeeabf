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
    // Readiness first: checking the engine is what negotiates the API version that info reports.
    try {
      this.readiness = await trpc.system.readiness.query();
      this.readinessError = null;
    } catch (err) {
      this.readinessError = errorMessage(err);
    }
    try {
      this.info = await trpc.system.info.query();
      this.infoError = null;
    } catch (err) {
      this.infoError = errorMessage(err);
    }
    this.checking = false;
  }
}
