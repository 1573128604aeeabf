import { describe, expect, it } from 'vitest';
import { EngineClient, negotiateApi, parseDockerHost } from './engine.client';

describe('engine client', () => {
  it('pins the engine API version within 1.39–1.46', () => {
    expect(negotiateApi('1.41')).toBe('1.41');
    expect(negotiateApi('1.47')).toBe('1.46');
    expect(negotiateApi('1.52')).toBe('1.46');
    expect(negotiateApi('1.38')).toBeNull();
    expect(negotiateApi('')).toBeNull();
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
