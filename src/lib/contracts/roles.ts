import { z } from 'zod';

/** Roles, weakest first: each one can do everything the ones before it can. */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}
