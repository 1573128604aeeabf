import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DomainError, notFound } from '../../errors';
import { RpcError, RPC_ERRORS } from './jsonrpc';
import { toRpcError, zodDetail } from './rpc.errors';

describe('rpc error mapping', () => {
  it('maps domain errors to codes and hides anything else', () => {
    expect(toRpcError(notFound('Agent x')).toObject()).toEqual({
      code: -32602,
      message: 'Invalid params',
      data: { detail: 'Agent x not found' }
    });
    expect(toRpcError(new DomainError('FORBIDDEN', 'no')).rpc.code).toBe(-32001);
    expect(toRpcError(new DomainError('ENGINE_UNAVAILABLE', 'down')).rpc.code).toBe(-32003);
    expect(
      toRpcError(new DomainError('RATE_LIMITED', 'slow', { retryAfterSeconds: 3 })).toObject()
    ).toMatchObject({ code: -32002, data: { retryAfterSeconds: 3, retryAfterMs: 3000 } });
    expect(toRpcError(new Error('/etc/secret path')).toObject()).toEqual({
      code: -32603,
      message: 'Internal error'
    });
    expect(
      toRpcError(new Database.SqliteError('database is locked', 'SQLITE_BUSY')).toObject()
    ).toEqual({
      code: -32003,
      message: 'Service unavailable',
      data: {
        detail: 'The database is locked by another process; try again shortly',
        retryAfterMs: 1000
      }
    });
    const own = new RpcError(RPC_ERRORS.PERMISSION, 'x');
    expect(toRpcError(own)).toBe(own);
  });

  it('names the fields at fault', () => {
    const schema = z.strictObject({ agentName: z.string(), limit: z.number().max(3).optional() });
    const missing = schema.safeParse({ limit: 9, extra: 1 }, { reportInput: true });
    expect(zodDetail(missing.error!)).toMatch(/agentName is required/);
    expect(zodDetail(missing.error!)).toMatch(/limit: /);
    expect(zodDetail(missing.error!)).toMatch(/unknown field extra/);
  });
});
