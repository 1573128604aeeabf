import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, login, trpc, type Berth } from './helpers/berth';
import { startWithAdmin } from './helpers/console';

const EVIL = 'http://evil.example';

/** The batch body of the reported attack: entry 1 goes to credentials.apiKeys.create. */
const ATTACK_BODY = JSON.stringify({ 0: {}, 1: { name: 'x', role: 'admin' } });

describe('console requests from other origins', () => {
  let berth: Berth;
  let admin: string;
  beforeAll(async () => ({ berth, admin } = await startWithAdmin()));
  afterAll(() => berth.stop());

  async function apiKeyNames(): Promise<string[]> {
    const res = await trpc(berth, admin, 'credentials.apiKeys.list', undefined, 'query');
    expect(res.status).toBe(200);
    return (res.body.result!.data as { name: string }[]).map((k) => k.name);
  }

  function post(path: string, headers: Record<string, string>, body?: string) {
    return fetch(`${berth.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: admin, ...headers },
      body
    });
  }

  it('refuses the reported attack: a percent-encoded /api/%74rpc batch from evil.example', async () => {
    const res = await post('/api/%74rpc/x,credentials.apiKeys.create?batch=1', {
      origin: EVIL,
      'content-type': 'application/json'
    });
    // The attack's own body, sent as the report sent it.
    const withBody = await post(
      '/api/%74rpc/x,credentials.apiKeys.create?batch=1',
      { origin: EVIL, 'content-type': 'application/json' },
      ATTACK_BODY
    );
    expect(res.status).toBe(403);
    expect(withBody.status).toBe(403);
    expect(await apiKeyNames()).not.toContain('x');
  });

  it('no other spelling of the console API gets through from another origin, with any body type', async () => {
    const paths = [
      '/api/trpc/x,credentials.apiKeys.create?batch=1',
      '/api/%74%72%70%63/x,credentials.apiKeys.create?batch=1',
      '/%61pi/trpc/x,credentials.apiKeys.create?batch=1',
      '/api//trpc/x,credentials.apiKeys.create?batch=1',
      '//api/trpc/x,credentials.apiKeys.create?batch=1',
      '/api/trpc%2Fx,credentials.apiKeys.create?batch=1',
      '/API/TRPC/x,credentials.apiKeys.create?batch=1',
      '/api/x/../trpc/x,credentials.apiKeys.create?batch=1'
    ];
    for (const path of paths)
      for (const type of ['application/json', 'text/plain', undefined]) {
        const headers: Record<string, string> = { origin: EVIL };
        if (type) headers['content-type'] = type;
        const res = await post(path, headers, ATTACK_BODY);
        // 403 where a route takes the path; 400 (not plain) or 404 (no route) where none does.
        expect([400, 403, 404], `${path} ${type}`).toContain(res.status);
        if (!path.includes('//') && !path.includes('%2F') && !path.startsWith('/API'))
          expect(res.status, `${path} ${type}`).toBe(403);
      }
    // No Origin and a cross-site fetch: refused as well.
    const crossSite = await post(
      '/api/trpc/x,credentials.apiKeys.create?batch=1',
      { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      ATTACK_BODY
    );
    expect(crossSite.status).toBe(403);
    // Neither header: not a browser on our pages, so refused too.
    const bare = await post(
      '/api/trpc/x,credentials.apiKeys.create?batch=1',
      { 'content-type': 'application/json' },
      ATTACK_BODY
    );
    expect(bare.status).toBe(403);
    expect(await apiKeyNames()).not.toContain('x');
  });

  it('answers 400 to a same-origin console API call on a path that is not spelled plainly', async () => {
    for (const path of [
      '/api/%74rpc/credentials.apiKeys.create',
      '/api//trpc/credentials.apiKeys.create',
      '/api/trpc%2Fcredentials.apiKeys.create',
      '/api/trpc/credentials.apiKeys.%63reate'
    ]) {
      const res = await post(
        path,
        { origin: berth.url, 'content-type': 'application/json' },
        JSON.stringify({ name: 'y', role: 'admin' })
      );
      expect(res.status, path).toBe(400);
    }
    expect(await apiKeyNames()).not.toContain('y');
  });

  it('a same-origin call still works, by Origin or, without one, by Sec-Fetch-Site', async () => {
    const byOrigin = await trpc(berth, admin, 'credentials.apiKeys.create', {
      name: 'by-origin',
      role: 'viewer'
    });
    expect(byOrigin.status).toBe(200);
    const bySecFetch = await post(
      '/api/trpc/credentials.apiKeys.create',
      { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      JSON.stringify({ name: 'by-sec-fetch', role: 'viewer' })
    );
    expect(bySecFetch.status).toBe(200);
    // A same-site sibling (another port or subdomain) is not our origin.
    const sameSite = await post(
      '/api/trpc/credentials.apiKeys.create',
      { 'sec-fetch-site': 'same-site', 'content-type': 'application/json' },
      JSON.stringify({ name: 'same-site', role: 'viewer' })
    );
    expect(sameSite.status).toBe(403);
    // A present Origin decides; Sec-Fetch-Site cannot talk a foreign Origin in.
    const mixed = await post(
      '/api/trpc/credentials.apiKeys.create',
      { origin: EVIL, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      JSON.stringify({ name: 'mixed', role: 'viewer' })
    );
    expect(mixed.status).toBe(403);
    expect(await apiKeyNames()).toEqual(expect.arrayContaining(['by-origin', 'by-sec-fetch']));
    expect(await apiKeyNames()).not.toContain('same-site');
    expect(await apiKeyNames()).not.toContain('mixed');
  });

  it('a cross-origin POST /logout with no Content-Type leaves the session alive', async () => {
    const session = await login(berth);
    const alive = () =>
      trpc(berth, session, 'credentials.apiKeys.list', undefined, 'query').then((r) => r.status);
    const attempts: Record<string, string>[] = [
      { origin: EVIL },
      { origin: EVIL, 'content-type': 'text/plain' },
      { 'sec-fetch-site': 'cross-site' },
      {}
    ];
    for (const headers of attempts) {
      const res = await fetch(`${berth.url}/logout`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: session, ...headers }
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.getSetCookie().join()).not.toContain('berth_session=;');
      expect(await alive()).toBe(200);
    }
    const own = await fetch(`${berth.url}/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: session, origin: berth.url }
    });
    expect(own.status).toBe(303);
    expect(await alive()).toBe(401);
  });

  it('refuses a cross-origin form action whatever its content type', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'application/json']) {
      const res = await fetch(`${berth.url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: EVIL, 'content-type': type, accept: 'text/html' },
        body: `email=${encodeURIComponent(ADMIN.email)}&password=${ADMIN.password}`
      });
      expect(res.status, type).toBe(403);
      expect(res.headers.getSetCookie().join()).not.toContain('berth_session=');
    }
  });
});
