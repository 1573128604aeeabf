import type { IncomingHttpHeaders } from 'node:http';
import type { AccessRepository } from '../../db/repositories/access.repository';
import { badRequest } from './webhook.errors';

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/** The caller's `Idempotency-Key` (or Standard Webhooks `webhook-id`), validated, or null. */
export function idempotencyKey(headers: IncomingHttpHeaders): string | null {
  const raw = headers['idempotency-key'] ?? headers['webhook-id'];
  if (raw === undefined) return null;
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  if (!KEY_FORMAT.test(value))
    throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters');
  return value;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Runs `act` once per (scope, key) for 24 h and replays its answer after that. The check, the
 * work and the remembered answer commit in one SQLite transaction, and the whole block is
 * synchronous, so neither concurrent duplicates (one JS thread) nor a crash between commit and
 * answer (one transaction) can make a second event or turn.
 */
export function once(
  access: AccessRepository,
  scope: string,
  key: string | null,
  act: () => Answer,
  now = Date.now()
): Answer & { replayed: boolean } {
  if (key === null) return { ...act(), replayed: false };
  const scoped = `webhook:${scope}:${key}`;
  return access.atomically(() => {
    const prior = access.idempotent(scoped, now - IDEMPOTENCY_TTL_MS);
    if (prior)
      return {
        status: prior.status,
        body: JSON.parse(prior.body) as Record<string, unknown>,
        replayed: true
      };
    const answer = act();
    if (answer.status < 300)
      access.remember(scoped, answer.status, JSON.stringify(answer.body), now);
    return { ...answer, replayed: false };
  });
}
