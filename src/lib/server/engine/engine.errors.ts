import { DomainError } from '../errors';

/** What the engine said, as plain text: its JSON `{message}` body, never the raw JSON. */
export function engineMessage(json: unknown): string {
  if (json && typeof json === 'object' && 'message' in json) return String(json.message);
  if (Buffer.isBuffer(json)) return json.toString('utf8').trim();
  return typeof json === 'string' ? json.trim() : '';
}

/** 409 answers in words: the engine's own message names ids, not what the user asked about. */
const CONFLICTS: [RegExp, (what: string) => string][] = [
  [/is not running/i, (w) => `${w} is not running`],
  [/is not paused/i, (w) => `${w} is not paused`],
  [/is (already )?paused/i, (w) => `${w} is paused: unpause it first`],
  [/is restarting/i, (w) => `${w} is restarting: wait until it settles`],
  [/cannot remove a running container/i, (w) => `${w} is running: stop it first or force`],
  [/already in use|already exists/i, (w) => `${w} already exists`],
  [/must force|being used|is using/i, (w) => `${w} is used by a container: remove it or force`],
  [/volume is in use/i, (w) => `${w} is used by a container`],
  [/active endpoints/i, (w) => `${w} still has containers connected`]
];

/** An engine answer that is not a success, as a DomainError a user understands. */
export function engineError(status: number, json: unknown, what: string): DomainError {
  const said = engineMessage(json);
  if (status === 404) {
    // The engine answers 404 for a missing image inside other calls (create, pull) too.
    const image = /no such image:? ?([^\s]+)/i.exec(said);
    if (image && !what.startsWith('image'))
      return new DomainError('NOT_FOUND', `no such image ${image[1]}`);
    return new DomainError('NOT_FOUND', `no such ${what}`);
  }
  // A registry's refusal reaches us as the engine's 500 (or 401/403) on a pull.
  if (what.startsWith('image ') && /unauthorized|authentication required|no basic auth/i.test(said))
    return new DomainError(
      'INVALID',
      `the registry refused the pull of ${what}: credentials missing or wrong`
    );
  // Engine 20.10 answers some state conflicts with 500 (unpause a running container) or 403
  // (remove a network with containers on it).
  if (status === 409 || status === 500 || status === 403) {
    const found = CONFLICTS.find(([pattern]) => pattern.test(said));
    if (found) return new DomainError('CONFLICT', found[1](what));
    if (status === 409) return new DomainError('CONFLICT', `${what}: ${said}`);
  }
  if (status === 400 || status === 403)
    return new DomainError('INVALID', `${what}: ${said || 'refused by the engine'}`);
  return new DomainError('ENGINE_UNAVAILABLE', `the engine failed on ${what}: ${said || status}`);
}

/** A connection failure in words; never the key, certificate paths or the socket's internals. */
export function connectionError(err: unknown, timeoutMs: number): string {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const name = err instanceof Error ? err.name : '';
  if (code === 'ENOENT' || code === 'ECONNREFUSED') return 'no engine is listening';
  if (code === 'EACCES') return 'permission denied on the engine socket';
  if (name === 'AbortError' || name === 'TimeoutError' || code === 'ABORT_ERR')
    return `the engine did not answer within ${timeoutMs / 1000} s`;
  if (/SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code))
    return "the engine's TLS certificate is not signed by the configured CA";
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return "the engine's TLS certificate does not name this host";
  if (code === 'CERT_HAS_EXPIRED') return "the engine's TLS certificate has expired";
  if (/ALERT|ECONNRESET|EPIPE/.test(code))
    return "the engine closed the connection (is Berth's client certificate accepted?)";
  return err instanceof Error ? err.message : 'unknown error';
}
