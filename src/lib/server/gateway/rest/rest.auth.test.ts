import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { RestCredential } from '../../domain/access/credential.service';
import { credentialName } from '../../http/request-context';
import { HttpProblem } from './problem';
import { authenticateRest, identifyRest, type RestAccess } from './rest.auth';

const config = {
  hash: '',
  digest: Buffer.alloc(32),
  source: 'config',
  prefix: null,
  createdAt: null
} as const;
const keys: Record<string, RestCredential> = {
  'viewer-key-0123456789': { ...config, id: 'v', name: 'dash', role: 'viewer' },
  'operator-key-0123456789': { ...config, id: 'o', name: 'ci', role: 'operator' }
};
const credentials = { authenticateRest: (key: string) => keys[key] ?? null };

function call(authorization: string | undefined, access: RestAccess) {
  const req = { headers: authorization ? { authorization } : {} } as IncomingMessage;
  const res = {} as ServerResponse;
  try {
    return { caller: authenticateRest(credentials, req, res, access), res };
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
