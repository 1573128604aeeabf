import { STATUS_CODES, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { isDomainError, toDomainError } from '../../errors';
import type { Logger } from '../../logger';
import { endSoon } from '../../http/flush';
import { API_HEADERS } from '../../http/security-headers';
import { BodyError } from '../http/body';

/** An HTTP-level refusal decided by the adapter itself (auth, routing), not by the domain. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {}
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }
}

export interface Problem {
  status: number;
  detail: string;
  headers: Record<string, string>;
}

/**
 * The ONE place REST turns a thrown error into a status (RFC 9457 problem details). Anything
 * unknown is a 500 whose detail says nothing about the internals; the cause goes to the log.
 */
export function toProblem(err: unknown, logger: Logger): Problem {
  if (err instanceof HttpProblem)
    return { status: err.status, detail: err.detail, headers: err.headers };
  if (err instanceof BodyError) return { status: err.status, detail: err.message, headers: {} };
  if (err instanceof z.ZodError) return { status: 400, detail: describeIssues(err), headers: {} };
  err = toDomainError(err) ?? err; // storage faults (locked database, full disk) included
  if (isDomainError(err)) {
    switch (err.code) {
      case 'NOT_FOUND':
        return { status: 404, detail: err.message, headers: {} };
      case 'INVALID':
        return { status: 400, detail: err.message, headers: {} };
      case 'CONFLICT':
        return { status: 409, detail: err.message, headers: {} };
      case 'UNAUTHENTICATED':
        return { status: 401, detail: err.message, headers: { 'WWW-Authenticate': 'Bearer' } };
      case 'FORBIDDEN':
        return { status: 403, detail: err.message, headers: {} };
      case 'RATE_LIMITED':
        return {
          status: 429,
          detail: err.message,
          headers: { 'Retry-After': String(Math.max(1, err.extra.retryAfterSeconds ?? 1)) }
        };
      case 'ENGINE_UNAVAILABLE':
        return { status: 503, detail: err.message, headers: {} };
      case 'UNAVAILABLE':
        return {
          status: 503,
          detail: err.message,
          headers: { 'Retry-After': String(Math.max(1, err.extra.retryAfterSeconds ?? 1)) }
        };
    }
  }
  logger.error({ err }, 'REST request failed');
  return { status: 500, detail: 'Internal error', headers: {} };
}

/** `body.skill_ids: expected array, received string; body.message: …` */
export function describeIssues(err: z.ZodError): string {
  return err.issues
    .map((i) => `${i.path.length ? i.path.join('.') : '(body)'}: ${i.message}`)
    .join('; ');
}

export function sendProblem(
  res: ServerResponse,
  status: number,
  detail: string,
  headers: Record<string, string> = {}
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // `about:blank`: the status alone says what kind of problem it is (RFC 9457 §4.2.1).
  const text = JSON.stringify({
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail
  });
  res.writeHead(status, {
    ...API_HEADERS,
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    // The rest of an oversized body is not read: the connection ends with this answer.
    ...(status === 413 ? { Connection: 'close' } : {}),
    ...headers
  });
  endSoon(res, text);
}
