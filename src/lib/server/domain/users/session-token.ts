import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import { timingSafeEqual } from 'node:crypto';

/** 120 random bits, base32: the Lucia guide's session secret. */
function randomToken(): string {
  const bytes = new Uint8Array(15);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

export function newSessionToken(): { id: string; secret: string; token: string } {
  const id = randomToken();
  const secret = randomToken();
  return { id, secret, token: `${id}.${secret}` };
}

export function hashSecret(secret: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(secret)));
}

const TOKEN_PART = /^[a-z2-7]{24}$/;

/** Splits `id.secret`; anything of another shape is not a token. */
export function parseSessionToken(token: string): { id: string; secret: string } | null {
  const dot = token.indexOf('.');
  if (dot < 0) return null;
  const id = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  return TOKEN_PART.test(id) && TOKEN_PART.test(secret) ? { id, secret } : null;
}

export function secretMatches(storedHash: string, secret: string): boolean {
  const a = Buffer.from(storedHash, 'hex');
  const b = Buffer.from(hashSecret(secret), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
