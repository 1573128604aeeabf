import { isDomainError } from '../errors';
import type { Logger } from '../logger';

/**
 * What a socket is told when an engine request of its own (exec, pull) fails: a domain error's
 * words as they are; a dropped connection as such; anything else logged and named only.
 */
export function describeFailure(err: unknown, logger: Logger, doing = 'engine request'): string {
  if (isDomainError(err)) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'EPIPE')
    return 'the engine dropped the connection';
  logger.warn({ err }, `${doing} failed`);
  return `the ${doing} failed`;
}
