import Database from 'better-sqlite3';
import type { ServerResponse } from 'node:http';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DomainError, notFound } from '../../errors';
import { BodyError } from '../http/body';
import { HttpProblem, sendProblem, toProblem } from './problem';

const logger = pino({ level: 'silent' });

describe('toProblem', () => {
  it('maps each domain code to one status', () => {
    expect(toProblem(notFound('Turn'), logger)).toMatchObject({ status: 404 });
    expect(toProblem(new DomainError('INVALID', 'params: bad'), logger)).toMatchObject({
      status: 400,
      detail: 'params: bad'
    });
    expect(toProblem(new DomainError('CONFLICT', 'x'), logger).status).toBe(409);
    expect(toProblem(new DomainError('FORBIDDEN', 'x'), logger).status).toBe(403);
    expect(toProblem(new DomainError('UNAUTHENTICATED', 'x'), logger)).toMatchObject({
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer' }
    });
    expect(
      toProblem(new DomainError('RATE_LIMITED', 'x', { retryAfterSeconds: 7 }), logger)
    ).toMatchObject({ status: 429, headers: { 'Retry-After': '7' } });
    expect(toProblem(new DomainError('ENGINE_UNAVAILABLE', 'x'), logger).status).toBe(503);
  });

  it('answers a locked database or a full disk with 503 and Retry-After', () => {
    const busy = new Database.SqliteError('database is locked', 'SQLITE_BUSY');
    expect(toProblem(busy, logger)).toEqual({
      status: 503,
      detail: 'The database is locked by another process; try again shortly',
      headers: { 'Retry-After': '1' }
    });
    const full = new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    expect(toProblem(full, logger)).toMatchObject({
      status: 503,
      headers: { 'Retry-After': '30' }
    });
  });

  it('keeps body errors, names zod fields, and hides unknown errors behind a 500', () => {
    expect(toProblem(new BodyError(415, 'json only'), logger)).toMatchObject({ status: 415 });
    const zod = z.object({ message: z.string() }).safeParse({ message: 3 });
    expect(toProblem(zod.error, logger)).toMatchObject({ status: 400 });
    expect(toProblem(zod.error, logger).detail).toMatch(/^message: /);
    expect(toProblem(new HttpProblem(405, 'no', { Allow: 'GET' }), logger)).toEqual({
      status: 405,
      detail: 'no',
      headers: { Allow: 'GET' }
    });
    const secret = new Error('SQLITE_CORRUPT at /data/berth.db');
    expect(toProblem(secret, logger)).toEqual({
      status: 500,
      detail: 'Internal error',
      headers: {}
    });
  });
});

describe('sendProblem', () => {
  it('writes problem+json with type, title, status and detail', async () => {
    let status = 0;
    let headers: Record<string, unknown> = {};
    let body = '';
    const res = {
      headersSent: false,
      writeHead(s: number, h: Record<string, unknown>) {
        status = s;
        headers = h;
      },
      end(text: string) {
        body = text;
      }
    } as unknown as ServerResponse;
    sendProblem(res, 429, 'slow down', { 'Retry-After': '3' });
    // The body is written in the check phase (http/flush.ts).
    await new Promise((done) => setImmediate(done));
    expect(status).toBe(429);
    expect(headers['Content-Type']).toBe('application/problem+json');
    expect(headers['Retry-After']).toBe('3');
    expect(JSON.parse(body)).toEqual({
      type: 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: 'slow down'
    });
  });
});
