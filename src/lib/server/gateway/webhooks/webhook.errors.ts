import type { ServerResponse } from 'node:http';
import { isDomainError, toDomainError } from '../../errors';
import { sendJson } from '../../http/fast-router';
import type { Logger } from '../../logger';
import { BodyError } from '../http/body';

/** The one place webhook failures become `{status, error, message}` answers. */
export class WebhookError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly headers: Record<string, string> = {}
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new WebhookError(400, 'bad_request', message);

const ERROR_NAMES: Record<number, string> = {
  400: 'bad_request',
  413: 'payload_too_large',
  415: 'unsupported_media_type'
};

const DOMAIN_STATUS = {
  NOT_FOUND: [404, 'not_found'],
  CONFLICT: [409, 'conflict'],
  INVALID: [400, 'bad_request'],
  UNAUTHENTICATED: [401, 'unauthorized'],
  FORBIDDEN: [403, 'forbidden'],
  RATE_LIMITED: [429, 'too_many_requests'],
  ENGINE_UNAVAILABLE: [503, 'unavailable'],
  UNAVAILABLE: [503, 'unavailable']
} as const;

export function toWebhookError(err: unknown, logger: Logger): WebhookError {
  if (err instanceof WebhookError) return err;
  if (err instanceof BodyError)
    return new WebhookError(err.status, ERROR_NAMES[err.status]!, err.message);
  err = toDomainError(err) ?? err; // storage faults (locked database, full disk) included
  if (isDomainError(err)) {
    const [status, name] = DOMAIN_STATUS[err.code];
    const retry = err.extra.retryAfterSeconds;
    return new WebhookError(
      status,
      name,
      err.message,
      retry ? { 'Retry-After': String(retry) } : {}
    );
  }
  logger.error({ err }, 'webhook failed');
  return new WebhookError(500, 'internal', 'Internal gateway error');
}

export function sendError(res: ServerResponse, err: WebhookError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(
    res,
    err.status,
    { status: err.status, error: err.error, message: err.message },
    err.headers
  );
}
