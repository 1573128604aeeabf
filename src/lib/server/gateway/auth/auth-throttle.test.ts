import { describe, expect, it } from 'vitest';
import { addressKey, AuthThrottle, retryAfterSeconds } from './auth-throttle';

function throttle(maxFailures = 3, windowMs = 60_000, maxKeys?: number) {
  let now = 1_000_000;
  const blocked: string[] = [];
  const t = new AuthThrottle(() => ({ maxFailures, windowMs }), {
    now: () => now,
    maxKeys,
    onBlocked: (address) => blocked.push(address)
  });
  return { t, blocked, advance: (ms: number) => (now += ms) };
}

describe('AuthThrottle', () => {
  it('refuses an address after maxFailures until the window that opened at its first failure ends', () => {
    const { t, blocked, advance } = throttle(3, 60_000);
    t.fail('10.0.0.1');
    advance(10_000);
    t.fail('10.0.0.1');
    expect(t.retryAfterMs('10.0.0.1')).toBe(0);
    t.fail('10.0.0.1');
    expect(t.retryAfterMs('10.0.0.1')).toBe(50_000);
    expect(t.retryAfterMs('10.0.0.2')).toBe(0);
    expect(blocked).toEqual(['10.0.0.1']);
    advance(49_999);
    expect(t.retryAfterMs('10.0.0.1')).toBe(1);
    advance(1);
    expect(t.retryAfterMs('10.0.0.1')).toBe(0);
    // A new window: the count starts again.
    t.fail('10.0.0.1');
    expect(t.retryAfterMs('10.0.0.1')).toBe(0);
  });

  it('costs nothing while no address has failed', () => {
    const { t } = throttle();
    expect(t.retryAfterMs(undefined)).toBe(0);
    expect(t.size).toBe(0);
  });

  it('counts an IPv6 /64 as one client, and IPv4-mapped addresses as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::5')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey(undefined)).toBe('unknown');
    const { t } = throttle(2);
    t.fail('2001:db8:1:2::a');
    t.fail('2001:db8:1:2::b');
    expect(t.retryAfterMs('2001:db8:1:2:3:4:5:6')).toBeGreaterThan(0);
    expect(t.retryAfterMs('2001:db8:1:3::a')).toBe(0);
  });

  it('stays bounded: expired windows are swept, the oldest key goes when full', () => {
    const { t, advance } = throttle(1, 1000, 3);
    for (const a of ['a', 'b', 'c', 'd']) t.fail(a);
    expect(t.size).toBe(3);
    expect(t.retryAfterMs('a')).toBe(0);
    expect(t.retryAfterMs('d')).toBeGreaterThan(0);
    advance(1000);
    t.fail('e');
    expect(t.size).toBe(1);
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1001)).toBe(2);
    expect(retryAfterSeconds(0)).toBe(1);
  });
});
