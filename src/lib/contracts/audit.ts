import { z } from 'zod';

export const auditEntrySchema = z.object({
  id: z.number(),
  at: z.number(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable()
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListInput = z.object({
  limit: z.number().int().min(1).max(200).default(50),
  before: z.number().int().optional(),
  /** An action (`user.create`) or its kind (`user`: every `user.*`). */
  action: z.string().trim().max(64).optional(),
  /** Plain text looked for in the actor, action, target and details, any case. */
  search: z.string().trim().max(200).optional()
});
/** The kinds of action the audit page filters by: the part of an action before its first dot. */
export const AUDIT_KINDS = [
  ['login', 'Sign-ins'],
  ['logout', 'Sign-outs'],
  ['user', 'Users'],
  ['rpc-token', 'RPC tokens'],
  ['api-key', 'API keys'],
  ['agent', 'Agents'],
  ['session', 'Sessions'],
  ['provider', 'Providers'],
  ['engine', 'Engines'],
  ['container', 'Containers'],
  ['image', 'Images'],
  ['network', 'Networks'],
  ['volume', 'Volumes'],
  ['system', 'System']
] as const;

export type AuditFilter = Pick<z.infer<typeof auditListInput>, 'action' | 'search'>;

/** Whether an entry belongs in a filtered view: the server's filter, for live entries. */
export function auditMatches(entry: AuditEntry, filter: AuditFilter): boolean {
  const { action, search } = filter;
  if (action && entry.action !== action && !entry.action.startsWith(`${action}.`)) return false;
  if (!search) return true;
  const text = [entry.actorEmail, entry.action, entry.target, JSON.stringify(entry.detail)]
    .join(' ')
    .toLowerCase();
  return text.includes(search.toLowerCase());
}

/** A detail object as short "key: value" pairs, leaving out what says nothing (null, []). */
export function auditDetailPairs(detail: AuditEntry['detail']): [string, string][] {
  if (!detail) return [];
  return Object.entries(detail).flatMap(([key, value]): [string, string][] => {
    if (value === null || value === undefined || value === '') return [];
    if (Array.isArray(value))
      return value.length
        ? [[key, value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')]]
        : [];
    return [[key, typeof value === 'string' ? value : JSON.stringify(value)]];
  });
}
