import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBerth, type Berth } from './helpers/berth';

describe('probes', () => {
  let berth: Berth;
  beforeAll(async () => {
    berth = await startBerth();
  });
  afterAll(() => berth.stop());

  it('/healthz answers ok', async () => {
    const res = await fetch(`${berth.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz reports the database and the real engine, with the negotiated API version', async () => {
    const res = await fetch(`${berth.url}/readyz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      status: string;
      checks: Record<string, { status: string; apiVersion?: string }>;
    };
    expect(body.checks.database?.status).toBe('ok');
    expect(body.checks.engine?.status).toBe('ok');
    expect(body.checks.engine?.apiVersion).toMatch(/^1\.(39|4\d)$/);
    expect(body.status).toBe('ok');
  });

  it('/metrics is Prometheus text that counts requests', async () => {
    await fetch(`${berth.url}/healthz`);
    const res = await fetch(`${berth.url}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^# HELP berth_http_requests_total /m);
    expect(text).toMatch(
      /berth_http_requests_total\{interface="probe",route="\/healthz",status="200",token=""\} [1-9]/
    );
    expect(text).toMatch(/^berth_process_resident_memory_bytes \d+/m);
  });

  it('a missing engine is reported as unavailable and readiness degrades, not fails', async () => {
    const noEngine = await startBerth({ env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock' } });
    try {
      const res = await fetch(`${noEngine.url}/readyz`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        status: string;
        checks: { engine: { status: string; detail: string } };
      };
      expect(body.status).toBe('degraded');
      expect(body.checks.engine).toMatchObject({
        status: 'unavailable',
        detail: 'no engine is listening'
      });
    } finally {
      await noEngine.stop();
    }
  });
});
