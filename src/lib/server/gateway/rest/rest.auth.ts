import type { IncomingMessage, ServerResponse } from 'node:http';
import { roleAtLeast, type Role } from '$lib/contracts/roles';
import type { CredentialService } from '../../domain/access/credential.service';
import { setCredentialName } from '../../http/request-context';
import { bearerToken } from '../auth/bearer';
import { HttpProblem } from './problem';

export interface RestCaller {
  id: string;
  name: string;
  role: Role;
}

/** Reads need any key (viewer up); anything that starts work needs operator or admin. */
export type RestAccess = 'read' | 'write';

/**
 * `Authorization: Bearer <API_KEY>`: keys from the config file and the console. The key's name
 * (never the key) is recorded for /metrics and usage.stats.
 */
export function authenticateRest(
  credentials: Pick<CredentialService, 'authenticateRest'>,
  req: IncomingMessage,
  res: ServerResponse,
  access: RestAccess
): RestCaller {
  const token = bearerToken(req.headers);
  const key = token ? credentials.authenticateRest(token) : null;
  if (!key)
    throw new HttpProblem(
      401,
      token ? 'The API key is not valid' : 'An API key is required: Authorization: Bearer <key>',
      { 'WWW-Authenticate': token ? 'Bearer error="invalid_token"' : 'Bearer' }
    );
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
