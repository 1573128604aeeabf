import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startBerth } from './helpers/berth';

describe('process lifecycle', () => {
  it('SIGTERM lets an in-flight request finish, refuses new ones, and exits 0 within 10 s', async () => {
    const berth = await startBerth();
    // A request whose body is still arriving is in flight.
    const inFlight = new Promise<number>((done, fail) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: berth.port,
          method: 'POST',
          path: '/login',
          headers: {
            accept: 'text/html',
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': '28',
            origin: berth.url
          }
        },
        (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        }
      );
      req.on('error', fail);
      req.write('email=a%40example.com');
      setTimeout(() => {
        berth.proc.kill('SIGTERM');
        setTimeout(() => req.end('&pw=xyz'), 500);
      }, 200);
    });
    const started = Date.now();
    const status = await inFlight;
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(500);
    await expect(fetch(`${berth.url}/healthz`)).rejects.toThrow();
    expect(await berth.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    await berth.stop();
  });

  it('an invalid configuration file stops the start with the key path named', async () => {
    const berth = await startBerth({
      config: 'webhooks:\n  rateLimit:\n    maxRequests: -1\n  tokn: x\n',
      expectExit: true
    });
    expect(await berth.exited).toBe(1);
    expect(berth.output()).toContain('webhooks.rateLimit.maxRequests');
    expect(berth.output()).toContain('webhooks.tokn: unknown key');
    await berth.stop();
  });

  it('an unset environment reference is named with its key path', async () => {
    const berth = await startBerth({
      config:
        'gateway:\n  rpc:\n    auth:\n      tokens:\n        - { name: ops, token: "${BERTH_TEST_UNSET}", permissions: ["*"] }\n',
      expectExit: true
    });
    expect(await berth.exited).toBe(1);
    expect(berth.output()).toContain(
      'gateway.rpc.auth.tokens[0].token: environment variable BERTH_TEST_UNSET is not set'
    );
    await berth.stop();
  });

  it('refuses to bind a non-loopback address without authentication and an ORIGIN', async () => {
    const berth = await startBerth({
      env: { HOST: '0.0.0.0' },
      config: 'gateway:\n  rpc:\n    auth:\n      type: none\n',
      expectExit: true
    });
    expect(await berth.exited).toBe(1);
    expect(berth.output()).toContain('refusing to listen on 0.0.0.0');
    expect(berth.output()).toContain('gateway.rpc.auth.type is "none"');
    await berth.stop();
  });

  it('reads HOST, PORT and BERTH_DATA_DIR, and keeps data across a restart', async () => {
    const first = await startBerth({
      env: { BERTH_ADMIN_EMAIL: 'keep@example.com', BERTH_ADMIN_PASSWORD: 'keep-this-password' }
    });
    const dataDir = first.dataDir;
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const second = await startBerth({ dataDir });
    try {
      const res = await fetch(`${second.url}/login`, { redirect: 'manual' });
      // Users exist already, so the login page is shown rather than the set-up page.
      expect(res.status).toBe(200);
    } finally {
      await second.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
