import { describe, expect, it } from 'vitest';
import { accessFor, safeNext } from './route-access';

describe('route access', () => {
  it('needs sign-in for console routes, with the longest prefix deciding the role', () => {
    expect(accessFor('/(auth)/login')).toEqual({ kind: 'public' });
    expect(accessFor(null)).toEqual({ kind: 'public' });
    expect(accessFor('/(console)')).toEqual({ kind: 'signed-in', role: 'viewer' });
    expect(accessFor('/(console)/[area]')).toEqual({ kind: 'signed-in', role: 'viewer' });
    expect(accessFor('/(console)/users')).toEqual({ kind: 'signed-in', role: 'admin' });
    expect(accessFor('/(console)/users/[id]')).toEqual({ kind: 'signed-in', role: 'admin' });
    expect(accessFor('/(console)/usersx')).toEqual({ kind: 'signed-in', role: 'viewer' });
  });

  it('follows `next` only to local paths', () => {
    expect(safeNext('/users?x=1')).toBe('/users?x=1');
    for (const bad of [
      null,
      '',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'users'
    ])
      expect(safeNext(bad), String(bad)).toBe('/');
  });
});
