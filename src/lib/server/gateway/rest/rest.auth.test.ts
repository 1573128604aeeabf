import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Role } from '$lib/contracts/roles';
import { credentialName } from '../../http/request-context';
import { HttpProblem } from './problem';
import { authenticateRest, identifyRest, type RestAccess } from './rest.auth';

const keys: Record<
  string,
  { id: string; hash: string; name: string; role: Role; source: 'config' }
> = {
  'viewer-key-0123456789': { id: 'v', hash: '', name: 'dash', role: 'viewer', source: 'config' },
  'operator-key-0123456789': { id: 'o', hash: '', name: 'ci', role: 'operator', source: 'config' }
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
