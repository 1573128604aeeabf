import { z } from 'zod';

export const checkSchema = z.strictObject({
  status: z.enum(['ok', 'unavailable', 'error']),
  detail: z.string().optional().describe('what is wrong, when it is'),
  latencyMs: z.number().int().optional()
});
export type Check = z.infer<typeof checkSchema>;
export type CheckStatus = Check['status'];

export interface Readiness {
  status: 'ok' | 'degraded' | 'unavailable';
  checks: { database: Check; engine: Check & { apiVersion?: string } };
}
