import { describe, expect, it } from 'vitest';
import { hashSecret, newSessionToken, parseSessionToken, secretMatches } from './session-token';

describe('session tokens', () => {
  it('are id.secret with 120-bit base32 parts, and unique', () => {
    const a = newSessionToken();
    const b = newSessionToken();
    expect(a.token).toMatch(/^[a-z2-7]{24}\.[a-z2-7]{24}$/);
    expect(a.token).not.toBe(b.token);
    expect(parseSessionToken(a.token)).toEqual({ id: a.id, secret: a.secret });
  });

  it('reject every other shape', () => {
    for (const bad of [
      '',
      '.',
      'abc',
      'a.b',
      `${'a'.repeat(24)}.${'A'.repeat(24)}`,
      `${'a'.repeat(24)}.${'a'.repeat(24)}.x`
    ])
      expect(parseSessionToken(bad), bad).toBeNull();
  });

  it('match only the secret whose hash is stored', () => {
    const { secret } = newSessionToken();
    const stored = hashSecret(secret);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(secretMatches(stored, secret)).toBe(true);
    expect(secretMatches(stored, newSessionToken().secret)).toBe(false);
    expect(secretMatches('abcd', secret)).toBe(false);
  });
});
