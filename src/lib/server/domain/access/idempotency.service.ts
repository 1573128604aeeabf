import type { AccessRepository } from '../../db/repositories/access.repository';

/** How long a remembered answer is replayed for its key. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/** What a keyed action answered, remembered as given (status and a JSON body). */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Idempotency keys and the transaction they commit in. Adapters (the webhooks) reach the
 * remembered answers through here, never through the repository.
 */
export class IdempotencyService {
  constructor(private readonly access: AccessRepository) {}

  /**
   * Runs `act` once per (scope, key) for 24 h and replays its answer after that. The check, the
   * work and the remembered answer commit in one SQLite transaction, and the whole block is
   * synchronous, so neither concurrent duplicates (one JS thread) nor a crash between commit and
   * answer (one transaction) can make a second event or turn. Only answers below 300 are kept.
   */
  once(
    scope: string,
    key: string | null,
    act: () => Answer,
    now = Date.now()
  ): Answer & { replayed: boolean } {
    if (key === null) return { ...act(), replayed: false };
    const scoped = `${scope}:${key}`;
    return this.access.atomically(() => {
      const prior = this.access.idempotent(scoped, now - IDEMPOTENCY_TTL_MS);
      if (prior)
        return {
          status: prior.status,
          body: JSON.parse(prior.body) as Record<string, unknown>,
          replayed: true
        };
      const answer = act();
      if (answer.status < 300)
        this.access.remember(scoped, answer.status, JSON.stringify(answer.body), now);
      return { ...answer, replayed: false };
    });
  }

  /**
   * Runs `work` in one immediate transaction: the webhooks' group commit, whose items (`once`
   * blocks, turn enqueues) then nest as savepoints.
   */
  atomically<T>(work: () => T): T {
    return this.access.atomically(work);
  }

  /** Drops the keys past their 24 h; returns how many. */
  forgetExpired(now = Date.now()): number {
    return this.access.forgetIdempotencyBefore(now - IDEMPOTENCY_TTL_MS);
  }
}
