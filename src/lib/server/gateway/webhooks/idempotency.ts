import type { IncomingHttpHeaders } from 'node:http';
import { badRequest } from './webhook.errors';

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
