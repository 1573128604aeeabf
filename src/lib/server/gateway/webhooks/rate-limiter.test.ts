import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter';

const limit = { maxRequests: 3, windowMs: 1000 };

describe('RateLimiter', () => {
  it('allows maxRequests per window, then refuses with the seconds left', () => {
    const limiter = new RateLimiter();
    for (let i = 0; i < 3; i++) expect(limiter.hit('a', limit, 10_000).allowed).toBe(true);
    expect(limiter.hit('a', limit, 10_400)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.hit('a', { maxRequests: 3, windowMs: 5000 }, 10_400)).toMatchObject({
      allowed: false
    });
  });

  it('counts keys apart and opens a new window once the old one ends', () => {
    const limiter = new RateLimiter();
    for (let i = 0; i < 3; i++) limiter.hit('a', limit, 0);
    expect(limiter.hit('a', limit, 999).allowed).toBe(false);
    expect(limiter.hit('b', limit, 999).allowed).toBe(true);
    expect(limiter.hit('a', limit, 1000).allowed).toBe(true);
  });

  it('reports Retry-After rounded up to whole seconds', () => {
    const limiter = new RateLimiter();
    const long = { maxRequests: 1, windowMs: 60_000 };
    limiter.hit('a', long, 0);
    expect(limiter.hit('a', long, 1)).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(limiter.hit('a', long, 59_001)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('sweeps expired keys and never holds more than maxKeys', () => {
    const limiter = new RateLimiter(100);
    for (let i = 0; i < 1000; i++) limiter.hit(`k${i}`, limit, 0);
    expect(limiter.size).toBe(100);
    limiter.hit('late', limit, 5000);
    expect(limiter.size).toBe(1);
  });
});
