import { initTRPC, TRPCError } from '@trpc/server';
import type { Role } from '$lib/contracts/roles';
import { roleAtLeast } from '$lib/contracts/roles';
import type { SessionUser } from '$lib/contracts/users';
import type { Actor } from '../domain/audit/audit.service';
import { isDomainError, toDomainError } from '../errors';
import type { BerthApp } from '../app';

export interface TrpcContext {
  app: BerthApp;
  user: SessionUser | null;
  sessionId: string | null;
  ip: string;
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter: ({ shape, error }) => ({
    ...shape,
    data: {
      code: shape.data.code,
      httpStatus: shape.data.httpStatus,
      ...retryAfter(error.cause)
    }
  })
});

/** `{retryAfterSeconds}` for a refusal that passes (rate limit, storage unavailable). */
function retryAfter(cause: unknown): { retryAfterSeconds?: number } {
  const seconds = isDomainError(cause) ? cause.extra.retryAfterSeconds : undefined;
  return seconds === undefined ? {} : { retryAfterSeconds: seconds };
}

/** The Retry-After header for an answer carrying such a refusal (the fetch adapter's responseMeta). */
export function retryAfterHeaders(errors: readonly { cause?: unknown }[]): {
  headers?: Record<string, string>;
} {
  const seconds = Math.max(0, ...errors.map((e) => retryAfter(e.cause).retryAfterSeconds ?? 0));
  return seconds > 0 ? { headers: { 'retry-after': String(seconds) } } : {};
}

const DOMAIN_TO_TRPC = {
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  INVALID: 'BAD_REQUEST',
  UNAUTHENTICATED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  ENGINE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE'
} as const;

/** Domain errors become tRPC errors in this one place. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  // A storage fault (locked database, full disk) arrives as the cause of an internal error.
  const cause = result.ok ? null : toDomainError(result.error.cause);
  if (cause) {
    throw new TRPCError({ code: DOMAIN_TO_TRPC[cause.code], message: cause.message, cause });
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(mapErrors);

/** A procedure open to signed-in users holding at least `minimum`. */
export function roleProcedure(minimum: Role) {
  return publicProcedure.use(({ ctx, next }) => {
    if (!ctx.user || !ctx.sessionId)
      throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in first' });
    if (!roleAtLeast(ctx.user.role, minimum))
      throw new TRPCError({ code: 'FORBIDDEN', message: `Needs the ${minimum} role` });
    const actor: Actor = { id: ctx.user.id, email: ctx.user.email, ip: ctx.ip };
    return next({ ctx: { ...ctx, user: ctx.user, sessionId: ctx.sessionId, actor } });
  });
}
