import { describe, expect, it } from 'vitest';
import { fromOwnPages, plainApiPath } from './origin-guard';

const OWN = 'http://127.0.0.1:18789';

describe('fromOwnPages', () => {
  const check = (method: string, headers: Record<string, string>) =>
    fromOwnPages(method, new Headers(headers), OWN);

  it('lets safe methods through from anywhere', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS'])
      expect(check(method, { origin: 'http://evil.example' })).toBe(true);
  });

  it('needs our Origin on any other method, whatever the content type', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(check(method, { origin: OWN })).toBe(true);
      expect(check(method, { origin: 'http://evil.example' })).toBe(false);
      expect(check(method, { origin: 'null' })).toBe(false);
      expect(check(method, { origin: `${OWN}.evil.example` })).toBe(false);
      expect(check(method, {})).toBe(false);
    }
  });

  it('falls back to Sec-Fetch-Site only when Origin is missing', () => {
    expect(check('POST', { 'sec-fetch-site': 'same-origin' })).toBe(true);
    for (const site of ['same-site', 'cross-site', 'none'])
      expect(check('POST', { 'sec-fetch-site': site })).toBe(false);
    expect(check('POST', { origin: 'http://evil.example', 'sec-fetch-site': 'same-origin' })).toBe(
      false
    );
  });
});

describe('plainApiPath', () => {
  it('accepts the paths the console client sends, and any non-API path', () => {
    expect(plainApiPath('/api/trpc/users.list')).toBe(true);
    expect(plainApiPath('/api/trpc/users.list,credentials.apiKeys.create')).toBe(true);
    expect(plainApiPath('/login')).toBe(true);
    expect(plainApiPath('/agents/%C3%A9t%C3%A9')).toBe(true);
    expect(plainApiPath('//login')).toBe(true);
  });

  it('refuses escapes and empty segments anywhere under /api, however /api is spelled', () => {
    for (const path of [
      '/api/%74rpc/x,credentials.apiKeys.create',
      '/%61pi/trpc/users.create',
      '/%41PI/trpc/users.create',
      '/api//trpc/users.create',
      '//api/trpc/users.create',
      '/api/trpc%2Fusers.create',
      '/api/trpc/users.%63reate',
      '/api/%zz',
      '/api%2Ftrpc/users.create'
    ])
      expect(plainApiPath(path), path).toBe(false);
  });
});
