import type { IncomingHttpHeaders } from 'node:http';
import { bearerToken } from '../auth/bearer';

/** The token a webhook request presents: `Authorization: Bearer` wins over `x-gateway-token`. */
export function presentedToken(headers: IncomingHttpHeaders): string | null {
  const bearer = bearerToken(headers);
  if (bearer) return bearer;
  const header = headers['x-gateway-token'];
  const value = Array.isArray(header) ? header[0] : header;
  return value?.trim() || null;
}

/** Query parameter names that carry secrets; URLs end up in logs and browser histories. */
const SECRET_PARAM = /token|secret|passw|signature|api[-_]?key|^key$|^auth/i;
const MAX_PARAMS_CHECKED = 32;

/**
 * True when the query string carries a token: a parameter named like one (`token`,
 * `access_token`, `api_key` …) or any value that is the webhook token itself.
 */
export function queryCarriesToken(url: string, isToken: (value: string) => boolean): boolean {
  const q = url.indexOf('?');
  if (q < 0 || q === url.length - 1) return false;
  let checked = 0;
  for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
    if (SECRET_PARAM.test(name)) return true;
    if (value.length >= 16 && isToken(value)) return true;
    if (++checked >= MAX_PARAMS_CHECKED) break;
  }
  return false;
}
