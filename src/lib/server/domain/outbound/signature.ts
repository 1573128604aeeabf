import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The Standard Webhooks signature (https://www.standardwebhooks.com/): HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed by the base64-decoded part of a `whsec_`
 * secret, sent base64-encoded as `v1,<signature>` in `webhook-signature`.
 */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one signed message; the timestamp is Unix seconds. */
export function signedHeaders(
  secret: string,
  id: string,
  body: string,
  now = Date.now()
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(secret, id, timestamp, body)
  };
}

/** True when any `v1,` entry of a (space-separated) signature header matches. */
export function verifies(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
  header: string
): boolean {
  const expected = Buffer.from(signature(secret, id, timestamp, body));
  return header
    .split(' ')
    .map((entry) => Buffer.from(entry))
    .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
}

/** A new secret: 32 random bytes, as the spec serialises them. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function secretKey(secret: string): Buffer {
  if (!secret.startsWith('whsec_')) throw new Error('an outbound secret starts with whsec_');
  return Buffer.from(secret.slice('whsec_'.length), 'base64');
}
