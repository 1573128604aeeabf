import { storageFault, type StorageFault } from './db/storage-fault';

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
      | 'ENGINE_UNAVAILABLE'
      /** Storage refuses writes for now (locked database, full disk): retry later. */
      | 'UNAVAILABLE',
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

const UNAVAILABLE: Record<StorageFault, { message: string; retryAfterSeconds: number }> = {
  busy: {
    message: 'The database is locked by another process; try again shortly',
    retryAfterSeconds: 1
  },
  full: {
    message: 'The disk is full: nothing can be stored until space is freed',
    retryAfterSeconds: 30
  },
  io: { message: 'The database cannot be written (I/O error)', retryAfterSeconds: 5 }
};

/**
 * The domain error a thrown value stands for: itself, or a storage fault (SQLITE_BUSY,
 * SQLITE_LOCKED, SQLITE_FULL, SQLITE_IOERR) as UNAVAILABLE; null for anything else. Every
 * adapter's error mapper goes through this, so a storage fault reads the same everywhere.
 */
export function toDomainError(err: unknown): DomainError | null {
  if (isDomainError(err)) return err;
  const fault = storageFault(err);
  if (!fault) return null;
  const { message, retryAfterSeconds } = UNAVAILABLE[fault];
  return new DomainError('UNAVAILABLE', message, { retryAfterSeconds });
}
