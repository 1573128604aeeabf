import type { IncomingMessage, ServerResponse } from 'node:http';
import { roleAtLeast, type Role } from '$lib/contracts/roles';
import type { CredentialService } from '../../domain/access/credential.service';
import { setCredentialName } from '../../http/request-context';
import { retryAfterSeconds, type AuthThrottle } from '../auth/auth-throttle';
import { bearerToken } from '../auth/bearer';
import { queryCarriesToken } from '../auth/query-token';
import { HttpProblem } from './problem';

export interface RestCaller {
  id: string;
  name: string;
  role: Role;
}

/** Reads need any key (viewer up); anything that starts work needs operator or admin. */
export type RestAccess = 'read' | 'write';

export interface RestAuthDeps {
  credentials: Pick<CredentialService, 'authenticateRest'>;
  authThrottle: Pick<AuthThrottle, 'retryAfterMs' | 'fail'>;
}

/**
 * `Authorization: Bearer <API_KEY>`: keys from the config file and the console. The key's name
 * (never the key) is recorded for /metrics and usage.stats. In order: an address past its
 * failed authentications is refused (429) before any key is looked at; a key in the query
 * string is refused (400); a missing or wrong key is 401 and counts as a failure.
 */
export function authenticateRest(
  deps: RestAuthDeps,
  req: IncomingMessage,
  res: ServerResponse,
  access: RestAccess
): RestCaller {
  const address = req.socket.remoteAddress;
  const wait = deps.authThrottle.retryAfterMs(address);
  if (wait)
    throw new HttpProblem(429, 'Too many failed authentications from this address', {
      'Retry-After': String(retryAfterSeconds(wait))
    });
  const token = bearerToken(req.headers);
  // Names only, or the caller's own key: matching values against every key would tell the
  // holder of one key when a guess is another (400 instead of 200).
  if (queryCarriesToken(req.url ?? '', (value) => value === token))
    throw new HttpProblem(400, 'Send the API key in the Authorization header, never in the URL');
  const key = token ? deps.credentials.authenticateRest(token) : null;
  if (!key) {
    deps.authThrottle.fail(address);
    throw new HttpProblem(
      401,
      token ? 'The API key is not valid' : 'An API key is required: Authorization: Bearer <key>',
      { 'WWW-Authenticate': token ? 'Bearer error="invalid_token"' : 'Bearer' }
    );
  }
  setCredentialName(res, key.name);
  if (access === 'write' && !roleAtLeast(key.role, 'operator'))
    throw new HttpProblem(403, `The API key ${key.name} has the ${key.role} role: read-only`);
  return { id: key.id, name: key.name, role: key.role };
}

/** Records the key's name when a valid one is present; never refuses (public answers). */
export function identifyRest(
  credentials: Pick<CredentialService, 'authenticateRest'>,
  req: IncomingMessage,
  res: ServerResponse
): void {
  const token = bearerToken(req.headers);
  const key = token ? credentials.authenticateRest(token) : null;
  if (key) setCredentialName(res, key.name);
}
