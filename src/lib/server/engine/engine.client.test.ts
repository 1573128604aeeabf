import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineClient, negotiateApi, parseDockerHost } from './engine.client';

describe('engine client', () => {
  it('pins the engine API version within 1.39–1.46', () => {
    expect(negotiateApi('1.41')).toBe('1.41');
    expect(negotiateApi('1.47')).toBe('1.46');
    expect(negotiateApi('1.52')).toBe('1.46');
    expect(negotiateApi('1.38')).toBeNull();
    expect(negotiateApi('')).toBeNull();
    expect(negotiateApi('1.41; rm')).toBeNull();
  });

  it('reads DOCKER_HOST forms', () => {
    expect(parseDockerHost(undefined)).toEqual({ socketPath: '/var/run/docker.sock' });
    expect(parseDockerHost('unix:///run/user/1000/docker.sock')).toEqual({
      socketPath: '/run/user/1000/docker.sock'
    });
    expect(parseDockerHost('tcp://127.0.0.1:2375')).toEqual({ host: '127.0.0.1', port: 2375 });
  });

  it('reports a missing engine as unavailable', async () => {
    const check = await new EngineClient({ socketPath: '/nonexistent/docker.sock' }).check();
    expect(check).toEqual({ status: 'unavailable', detail: 'no engine is listening' });
  });
});

/**
 * Engines of other versions than this machine's (API 1.41): a loopback server that answers
 * `/_ping` with the version under test and records the paths it is asked for.
 */
describe('version negotiation against other engine versions', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  async function engineSpeaking(apiVersion: string, seen: string[]): Promise<EngineClient> {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.setHeader('Api-Version', apiVersion);
      res.setHeader('Content-Type', 'application/json');
      res.end(req.url === '/_ping' ? 'OK' : '[]');
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    return new EngineClient({ host: '127.0.0.1', port });
  }

  it('caps a newer engine at 1.46 and puts every request on the versioned path', async () => {
    const seen: string[] = [];
    const client = await engineSpeaking('1.47', seen);
    await client.call({ method: 'GET', path: '/containers/json', query: { all: true }, what: 'x' });
    expect(client.apiVersion).toBe('1.46');
    expect(seen).toEqual(['GET /_ping', 'GET /v1.46/containers/json?all=true']);
  });

  it('refuses an engine older than 1.39 with a clear message', async () => {
    const seen: string[] = [];
    const client = await engineSpeaking('1.30', seen);
    expect(await client.check()).toMatchObject({
      status: 'error',
      detail: 'engine API 1.30 is outside 1.39–1.46: upgrade the engine'
    });
    await expect(
      client.call({ method: 'GET', path: '/info', what: 'engine info' })
    ).rejects.toThrow('engine API 1.30 is outside 1.39–1.46: upgrade the engine');
    expect(seen.every((s) => s === 'GET /_ping')).toBe(true);
  });

  it('never sends a path outside the spec', async () => {
    const seen: string[] = [];
    const client = await engineSpeaking('1.41', seen);
    await expect(client.call({ method: 'GET', path: '/plugins', what: 'plugins' })).rejects.toThrow(
      'GET /plugins is not an engine operation Berth offers'
    );
    expect(seen).toEqual([]);
  });
});
