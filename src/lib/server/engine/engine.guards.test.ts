import { describe, expect, it } from 'vitest';
import { isValidEngineId } from '$lib/contracts/engine-ids';
import { isAllowedEndpoint } from './engine.endpoints';
import { engineError } from './engine.errors';

describe('engine identifiers', () => {
  it('accepts the engine’s own names and image references', () => {
    for (const name of ['web', 'web-1', 'my_app.v2', 'a'.repeat(64)])
      expect(isValidEngineId('container', name)).toBe(true);
    for (const ref of [
      'busybox',
      'berth-test/busybox:latest',
      'localhost:5000/team/app:1.0',
      `registry.example.com/app@sha256:${'f'.repeat(64)}`,
      `sha256:${'a'.repeat(64)}`,
      'abcdef123456'
    ])
      expect(isValidEngineId('image', ref)).toBe(true);
  });

  it('refuses traversal, queries, encodings and control characters', () => {
    for (const bad of ['', '..', '../x', 'a/b', 'a?b', 'a%2fb', 'a#b', 'a\nb', 'a\u0000b', '-rm'])
      expect(isValidEngineId('container', bad)).toBe(false);
    for (const bad of [
      'app/../plugins',
      'app:latest?x=1',
      'App',
      'app%2f..',
      'app//x',
      'app:tag/json'
    ])
      expect(isValidEngineId('image', bad)).toBe(false);
    expect(isValidEngineId('exec', 'abc')).toBe(false);
  });
});

describe('engine endpoint allow-list', () => {
  it('reaches the spec’s endpoints only', () => {
    expect(isAllowedEndpoint('GET', '/containers/web/logs')).toBe(true);
    expect(isAllowedEndpoint('POST', '/containers/web/kill')).toBe(true);
    expect(isAllowedEndpoint('DELETE', '/images/localhost:5000/app:1')).toBe(true);
    // An exec's resize and inspect, for an exec id only (the exec console needs them).
    expect(isAllowedEndpoint('POST', `/exec/${'a'.repeat(64)}/resize`)).toBe(true);
    expect(isAllowedEndpoint('GET', `/exec/${'a'.repeat(64)}/json`)).toBe(true);
    // A container skill's attach and wait, by full container id only.
    expect(isAllowedEndpoint('POST', `/containers/${'b'.repeat(64)}/attach`)).toBe(true);
    expect(isAllowedEndpoint('POST', `/containers/${'b'.repeat(64)}/wait`)).toBe(true);
    for (const [method, path] of [
      ['GET', '/plugins'],
      ['GET', '/swarm'],
      ['GET', '/secrets'],
      ['POST', '/containers/web/attach'],
      ['POST', '/containers/web/update'],
      ['GET', '/containers/web/export'],
      ['POST', '/system/prune'],
      ['DELETE', '/containers/../plugins'],
      ['GET', '/images/x/../../plugins/json'],
      ['POST', '/containers/json'],
      ['POST', '/exec/web/resize'],
      ['GET', '/exec/web/json']
    ])
      expect(isAllowedEndpoint(method!, path!), `${method} ${path}`).toBe(false);
  });
});

describe('engine answers in words', () => {
  it('turns 404 and 409 into messages about the object', () => {
    expect(engineError(404, { message: 'No such container: abc' }, 'container web').message).toBe(
      'no such container web'
    );
    expect(
      engineError(404, { message: 'No such image: app:1' }, 'a container from app:1').message
    ).toBe('no such image app:1');
    const conflict = engineError(
      409,
      { message: 'Container 3f2a… is not running' },
      'container web'
    );
    expect([conflict.code, conflict.message]).toEqual(['CONFLICT', 'container web is not running']);
    expect(engineError(409, { message: 'something new' }, 'volume v').message).toBe(
      'volume v: something new'
    );
    expect(engineError(400, Buffer.from('bad parameter'), 'network n').message).toBe(
      'network n: bad parameter'
    );
  });
});
