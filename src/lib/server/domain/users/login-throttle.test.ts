import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle';

describe('LoginThrottle', () => {
  const options = {
    freeAttempts: 3,
    baseDelayMs: 1000,
    maxDelayMs: 8000,
    forgetAfterMs: 60_000,
    maxKeys: 3
  };

  it('allows free attempts, then doubles the wait up to the cap', () => {
    let now = 0;
    const throttle = new LoginThrottle(options, () => now);
    const keys = ['account:a'];
    for (let i = 0; i < 2; i++) throttle.fail(keys);
    expect(throttle.waitMs(keys)).toBe(0);
    throttle.fail(keys);
    expect(throttle.waitMs(keys)).toBe(1000);
    throttle.fail(keys);
    expect(throttle.waitMs(keys)).toBe(2000);
    for (let i = 0; i < 10; i++) throttle.fail(keys);
    expect(throttle.waitMs(keys)).toBe(8000);
    now += 8000;
    expect(throttle.waitMs(keys)).toBe(0);
  });

  it('never locks out for good: quiet time forgets, success clears', () => {
    let now = 0;
    const throttle = new LoginThrottle(options, () => now);
    for (let i = 0; i < 5; i++) throttle.fail(['ip:1']);
    now += 61_000;
    expect(throttle.waitMs(['ip:1'])).toBe(0);
    throttle.fail(['ip:1']);
    expect(throttle.waitMs(['ip:1'])).toBe(0);
    for (let i = 0; i < 5; i++) throttle.fail(['ip:2']);
    throttle.succeed(['ip:2']);
    expect(throttle.waitMs(['ip:2'])).toBe(0);
  });

  it('checks every key: the account or the address alone is enough to wait', () => {
    const throttle = new LoginThrottle(options, () => 0);
    for (let i = 0; i < 3; i++) throttle.fail(['account:x', 'ip:9']);
    expect(throttle.waitMs(['account:other', 'ip:9'])).toBe(1000);
    expect(throttle.waitMs(['account:x', 'ip:other'])).toBe(1000);
    expect(throttle.waitMs(['account:y', 'ip:8'])).toBe(0);
  });

  it('keeps memory bounded by dropping the stalest keys', () => {
    const throttle = new LoginThrottle(options, () => 0);
    for (const key of ['a', 'b', 'c', 'd']) for (let i = 0; i < 3; i++) throttle.fail([key]);
    expect(throttle.waitMs(['a'])).toBe(0);
    expect(throttle.waitMs(['d'])).toBe(1000);
  });
});
