import { describe, expect, it } from 'vitest';
import { idFrom } from './reads.handler';

describe('idFrom', () => {
  it('takes exactly one decoded segment after the prefix', () => {
    expect(idFrom('/api/v1/turns/abc', '/api/v1/turns')).toBe('abc');
    expect(idFrom('/api/v1/turns/a%20b', '/api/v1/turns')).toBe('a b');
    expect(idFrom('/api/v1/turns', '/api/v1/turns')).toBeNull();
    expect(idFrom('/api/v1/turns/', '/api/v1/turns')).toBeNull();
    expect(idFrom('/api/v1/turns/a/b', '/api/v1/turns')).toBeNull();
    expect(idFrom('/api/v1/turns/%E0%A4%A', '/api/v1/turns')).toBeNull();
    expect(idFrom(`/api/v1/turns/${'x'.repeat(201)}`, '/api/v1/turns')).toBeNull();
  });
});
