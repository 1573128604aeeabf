import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trpc, type Berth } from './helpers/berth';
import { startWithAdmin } from './helpers/console';

/** A raw request, so the Host header and body can be anything. */
function raw(
  berth: Berth,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }
) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }>((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: berth.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
      }
    );
    req.on('error', fail);
    req.end(options.body);
  });
}

describe('HTTP hardening', () => {
  let berth: Berth;
  let admin: string;
  beforeAll(async () => ({ berth, admin } = await startWithAdmin()));
  afterAll(() => berth.stop());

  it('pages carry CSP with frame-ancestors none, nosniff and a Referrer-Policy', async () => {
    const res = await fetch(`${berth.url}/login`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'( 'nonce-[^']+'| 'sha256-[^']+')+/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('JSON answers and static assets carry the strict default CSP', async () => {
    const health = await fetch(`${berth.url}/healthz`);
    expect(health.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await (await fetch(`${berth.url}/login`)).text();
    const asset = /\/_app\/immutable\/[^"]+\.js/.exec(page)?.[0];
    expect(asset).toBeTruthy();
    const js = await fetch(`${berth.url}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a Host that is neither the origin nor loopback (DNS rebinding)', async () => {
    const evil = await raw(berth, { path: '/healthz', headers: { host: 'evil.example:18789' } });
    expect(evil.status).toBe(421);
    const page = await raw(berth, { path: '/login', headers: { host: 'attacker.test' } });
    expect(page.status).toBe(421);
    const local = await raw(berth, {
      path: '/healthz',
      headers: { host: `localhost:${berth.port}` }
    });
    expect(local.status).toBe(200);
  });

  it('answers 413 to a body over the limit before reading it', async () => {
    const res = await raw(berth, {
      method: 'POST',
      path: '/login',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(2 * 1024 * 1024),
        origin: berth.url
      },
      body: 'x'.repeat(1024)
    }).catch((err: NodeJS.ErrnoException) => ({
      status: err.code === 'ECONNRESET' ? 413 : 0,
      headers: {},
      body: ''
    }));
    expect(res.status).toBe(413);
  });

  it('malformed cookies are ignored, never a 500', async () => {
    for (const cookie of [
      'berth_session=%E0%A4%A',
      'berth_session=a.b',
      'berth_session="unterminated',
      '=;;;=',
      'berth_session=' + 'x'.repeat(5000)
    ]) {
      const res = await fetch(`${berth.url}/`, { headers: { cookie }, redirect: 'manual' });
      expect(res.status, cookie).toBe(303);
      expect(res.headers.get('location')).toMatch(/^\/login/);
    }
  });

  it('unknown routes are 404 and the console needs a login', async () => {
    expect((await fetch(`${berth.url}/no/such/page`)).status).toBe(404);
    expect((await fetch(`${berth.url}/api/v1/nothing`)).status).toBe(404);
    const console = await fetch(`${berth.url}/users`, { redirect: 'manual' });
    expect(console.status).toBe(303);
    expect(console.headers.get('location')).toBe('/login?next=%2Fusers');
  });

  it('tRPC: 401 without a session, 403 across origins, 400 for bad input, no stack traces', async () => {
    const anon = await trpc(berth, undefined, 'users.list', undefined, 'query');
    expect(anon.status).toBe(401);
    const cross = await fetch(`${berth.url}/api/trpc/users.create`, {
      method: 'POST',
      headers: { cookie: admin, origin: 'http://evil.example', 'content-type': 'application/json' },
      body: '{}'
    });
    expect(cross.status).toBe(403);
    const bad = await trpc(berth, admin, 'users.create', {
      email: 'not-an-email',
      name: '',
      role: 'root',
      password: 'x'
    });
    expect(bad.status).toBe(400);
    const malformed = await fetch(`${berth.url}/api/trpc/users.create`, {
      method: 'POST',
      headers: { cookie: admin, origin: berth.url, 'content-type': 'application/json' },
      body: '{"email":'
    });
    expect(malformed.status).toBe(400);
    const text = JSON.stringify(bad.body) + (await malformed.text());
    expect(text).not.toMatch(/at .*\.js:\d+/);
  });

  it('a form post from another origin is refused by the CSRF check', async () => {
    const res = await fetch(`${berth.url}/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://evil.example'
      },
      body: 'email=a&password=b',
      redirect: 'manual'
    });
    expect(res.status).toBe(403);
  });

  it('closes a connection whose headers never finish (slowloris)', async () => {
    const started = Date.now();
    const closedAfter = await new Promise<number>((done, fail) => {
      const socket = connect(berth.port, '127.0.0.1', () =>
        socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')
      );
      socket.on('data', () => undefined);
      socket.on('close', () => done(Date.now() - started));
      socket.on('error', () => undefined);
      setTimeout(() => fail(new Error('still open after 15 s')), 15_000);
    });
    expect(closedAfter).toBeGreaterThanOrEqual(9_000);
    expect(closedAfter).toBeLessThan(14_000);
  }, 20_000);
});
