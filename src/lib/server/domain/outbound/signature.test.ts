import { describe, expect, it } from 'vitest';
import { newSecret, signature, signedHeaders, verifies } from './signature';

describe('Standard Webhooks signature', () => {
  // The example the specification's reference libraries test against.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const body = '{"test": 2432232314}';

  it('matches the reference libraries’ example', () => {
    expect(signature(secret, id, 1614265330, body)).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='
    );
  });

  it('signs with the current Unix second and verifies against any listed v1 entry', () => {
    const headers = signedHeaders(secret, id, body, 1614265330_500);
    expect(headers['webhook-timestamp']).toBe('1614265330');
    expect(verifies(secret, id, 1614265330, body, `v1,bogus ${headers['webhook-signature']}`)).toBe(
      true
    );
    expect(verifies(secret, id, 1614265331, body, headers['webhook-signature'])).toBe(false);
    expect(verifies(newSecret(), id, 1614265330, body, headers['webhook-signature'])).toBe(false);
  });

  it('makes 32-byte whsec_ secrets', () => {
    const made = newSecret();
    expect(made).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(made.slice(6), 'base64')).toHaveLength(32);
  });
});
