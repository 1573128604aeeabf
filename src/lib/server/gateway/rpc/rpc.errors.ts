import { z } from 'zod';
import { isDomainError, toDomainError } from '../../errors';
import { RpcError, RPC_ERRORS } from './jsonrpc';

/**
 * The ONE place where failures become JSON-RPC errors. A domain NOT_FOUND or INVALID is the
 * caller's mistake about the params it sent, so both are -32602 "Invalid params" with the
 * domain's message as data.detail ("Agent x not found"); anything unexpected is -32603 with
 * nothing of its internals. Storage refusing writes (locked database, full disk) is -32003
 * "Service unavailable" with data.retryAfterMs.
 */
export function toRpcError(err: unknown): RpcError {
  if (err instanceof RpcError) return err;
  if (err instanceof z.ZodError) return new RpcError(RPC_ERRORS.INVALID_PARAMS, zodDetail(err));
  err = toDomainError(err) ?? err; // storage faults (locked database, full disk) included
  if (!isDomainError(err)) return new RpcError(RPC_ERRORS.INTERNAL);
  switch (err.code) {
    case 'NOT_FOUND':
    case 'INVALID':
    case 'CONFLICT':
      return new RpcError(RPC_ERRORS.INVALID_PARAMS, err.message);
    case 'UNAUTHENTICATED':
      return new RpcError(RPC_ERRORS.AUTH, err.message);
    case 'FORBIDDEN':
      return new RpcError(RPC_ERRORS.PERMISSION, err.message);
    case 'RATE_LIMITED':
      return new RpcError(
        RPC_ERRORS.TOO_MANY,
        err.message,
        err.extra.retryAfterSeconds !== undefined
          ? {
              retryAfterSeconds: err.extra.retryAfterSeconds,
              retryAfterMs: err.extra.retryAfterSeconds * 1000
            }
          : {}
      );
    case 'ENGINE_UNAVAILABLE':
      return new RpcError(RPC_ERRORS.UNAVAILABLE, err.message);
    case 'UNAVAILABLE':
      return new RpcError(RPC_ERRORS.UNAVAILABLE, err.message, {
        retryAfterMs: (err.extra.retryAfterSeconds ?? 1) * 1000
      });
  }
}

/** One line naming the field(s) at fault: "agentName is required", "limit: Too big: …". */
export function zodDetail(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      if (issue.code === 'unrecognized_keys')
        return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
      if (issue.code === 'invalid_type' && issue.input === undefined) return `${path} is required`;
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
