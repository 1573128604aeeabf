/** Query parameter names that carry secrets; URLs end up in logs and browser histories. */
const SECRET_PARAM = /token|secret|passw|signature|api[-_]?key|^key$|^auth/i;
const MAX_PARAMS_CHECKED = 32;

/**
 * True when the query string carries a credential: a parameter named like one (`token`,
 * `access_token`, `api_key` …) or any value that is a valid credential itself. Webhooks and
 * REST refuse such a request with 400, whether or not the header holds a credential too.
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
