import { describe, expect, it } from 'vitest';
import { containerCreateSchema } from '$lib/contracts/engine';
import { hostReachingOptions } from './container.service';
import { registryAuthFor, registryOf } from './registry-auth';

describe('host-reaching create options', () => {
  const base = containerCreateSchema.parse({ image: 'busybox' });

  it('finds each option that needs an admin', () => {
    expect(hostReachingOptions(base)).toEqual([]);
    expect(hostReachingOptions({ ...base, binds: ['data:/data'] })).toEqual([]);
    expect(hostReachingOptions({ ...base, networkMode: 'bridge', pidMode: 'container:x' })).toEqual(
      []
    );
    expect(
      hostReachingOptions({
        ...base,
        privileged: true,
        binds: ['/var/run/docker.sock:/s'],
        networkMode: 'host',
        pidMode: 'host',
        capAdd: ['SYS_ADMIN']
      })
    ).toEqual([
      'privileged mode',
      'host-path binds',
      'the host network',
      'the host PID namespace',
      'added capabilities'
    ]);
  });
});

describe('the create contract', () => {
  it('takes a named volume or an absolute host path as a bind source, nothing else', () => {
    const binds = (b: string) =>
      containerCreateSchema.safeParse({ image: 'busybox', binds: [b] }).success;
    expect([binds('data:/data'), binds('/srv/app:/app:ro')]).toEqual([true, true]);
    for (const bad of ['../etc:/x', './x:/x', '~/x:/x', 'data:relative', 'a:/b:/c'])
      expect(binds(bad), bad).toBe(false);
  });
});

describe('registry credentials', () => {
  const creds = [{ server: '127.0.0.1:5000', username: 'u', password: 'p' }];

  it('finds the registry of an image and encodes X-Registry-Auth', () => {
    expect(registryOf('busybox')).toBe('docker.io');
    expect(registryOf('team/app')).toBe('docker.io');
    expect(registryOf('127.0.0.1:5000/app')).toBe('127.0.0.1:5000');
    expect(registryAuthFor('busybox', creds)).toBeUndefined();
    const header = registryAuthFor('127.0.0.1:5000/app', creds);
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({
      username: 'u',
      password: 'p',
      serveraddress: '127.0.0.1:5000'
    });
  });
});
