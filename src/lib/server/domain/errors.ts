/** Typed domain errors with stable codes; each adapter maps them in one place. */
export class DomainError extends Error {
  constructor(
    readonly code:
      | 'NOT_FOUND'
      | 'CONFLICT'
      | 'INVALID'
      | 'UNAUTHENTICATED'
      | 'FORBIDDEN'
      | 'RATE_LIMITED'
      | 'ENGINE_UNAVAILABLE',
    message: string,
    readonly extra: { retryAfterSeconds?: number } = {}
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string) => new DomainError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new DomainError('CONFLICT', message);
export const invalid = (message: string) => new DomainError('INVALID', message);
export const forbidden = (message = 'Not allowed') => new DomainError('FORBIDDEN', message);

/** Code check that also holds across bundle copies, where instanceof would not. */
export function isDomainError(err: unknown): err is DomainError {
  return err instanceof Error && err.name === 'DomainError' && 'code' in err;
}
