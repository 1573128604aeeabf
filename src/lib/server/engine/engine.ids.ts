import { isValidEngineId, type EngineIdKind } from '$lib/contracts/engine-ids';
import { DomainError } from '../errors';

/** The identifier itself, or INVALID (quoted, so control bytes never reach a message raw). */
export function checkId(kind: EngineIdKind, value: string): string {
  if (!isValidEngineId(kind, value))
    throw new DomainError('INVALID', `${JSON.stringify(value)} is not a valid ${kind} name or id`);
  return value;
}
