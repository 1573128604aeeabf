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
  before: z.number().int().optional()
});
