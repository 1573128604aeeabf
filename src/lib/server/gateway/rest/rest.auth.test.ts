import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { RestCredential } from '../../domain/access/credential.service';
import { AuthThrottle } from '../auth/auth-throttle';
import { credentialName } from '../../http/request-context';
import { HttpProblem } from './problem';
import { authenticateRest, identifyRest, type RestAccess } from './rest.auth';

const config = {
  hash: '',
  digest: Buffer.alloc(32),
  source: 'config',
  prefix: null,
  createdAt: null,
  lastUsedAt: null,
  rotatedAt: null
} as const;
const keys: Record<string, RestCredential> = {
  'viewer-key-0123456789': { ...config, id: 'v', name: 'dash', role: 'viewer' },
  'operator-key-0123456789': { ...config, id: 'o', name: 'ci', role: 'operator' }
};
const credentials = { authenticateRest: (key: string) => keys[key] ?? null };
const throttle = () => new AuthThrottle(() => ({ maxFailures: 3, windowMs: 60_000 }));

function call(
  authorization: string | undefined,
  access: RestAccess,
  { url = '/api/v1/skills/list', address = '10.0.0.1', authThrottle = throttle() } = {}
) {
  const req = {
    headers: authorization ? { authorization } : {},
    url,
    socket: { remoteAddress: address }
  } as unknown as IncomingMessage;
  const res = {} as ServerResponse;
  try {
    return { caller: authenticateRest({ credentials, authThrottle }, req, res, access), res };
  } catch (err) {
    return { err: err as HttpProblem, res };
  }
}

describe('authenticateRest', () => {
  it('refuses a missing or unknown key with 401 and a Bearer challenge', () => {
    for (const header of [undefined, 'Bearer nope', 'Basic dXNlcjpwYXNz']) {
      const { err } = call(header, 'read');
      expect(err?.status).toBe(401);
      expect(err?.headers['WWW-Authenticate']).toMatch(/^Bearer/);
    }
  });

  it('lets a viewer read but not write, and records the key name either way', () => {
    const read = call('Bearer viewer-key-0123456789', 'read');
    expect(read.caller).toEqual({ id: 'v', name: 'dash', role: 'viewer' });
    const write = call('Bearer viewer-key-0123456789', 'write');
    expect(write.err?.status).toBe(403);
    expect(credentialName(write.res)).toBe('dash');
  });

  it('refuses a key in the query string with 400, a secret-named parameter or the key itself', () => {
    for (const url of ['/x?api_key=1', '/x?access_token=abc', '/x?q=operator-key-0123456789'])
      expect(call('Bearer operator-key-0123456789', 'read', { url }).err?.status).toBe(400);
    expect(call(undefined, 'read', { url: '/x?api_key=1' }).err?.status).toBe(400);
    // Another key's value is not matched: that would make the 400 an oracle for guesses.
    expect(
      call('Bearer viewer-key-0123456789', 'read', { url: '/x?q=operator-key-0123456789' }).caller
    ).toBeTruthy();
  });

  it('after maxFailures from one address answers 429 to it, the right key included', () => {
    const authThrottle = throttle();
    for (let i = 0; i < 3; i++)
      expect(call('Bearer wrong', 'read', { authThrottle }).err?.status).toBe(401);
    const refused = call('Bearer operator-key-0123456789', 'read', { authThrottle }).err;
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers['Retry-After'])).toBe(60);
    const other = call('Bearer operator-key-0123456789', 'read', {
      authThrottle,
      address: '10.0.0.2'
    });
    expect(other.caller?.name).toBe('ci');
  });

  it('lets an operator write', () => {
    expect(call('Bearer operator-key-0123456789', 'write').caller?.role).toBe('operator');
  });

  it('identifyRest names a valid key and lets anything else through', () => {
    const named = {} as ServerResponse;
    identifyRest(
      credentials,
      { headers: { authorization: 'Bearer operator-key-0123456789' } } as IncomingMessage,
      named
    );
    expect(credentialName(named)).toBe('ci');
    const anonymous = {} as ServerResponse;
    identifyRest(
      credentials,
      { headers: { authorization: 'Bearer nope' } } as IncomingMessage,
      anonymous
    );
    expect(credentialName(anonymous)).toBeNull();
  });
});
