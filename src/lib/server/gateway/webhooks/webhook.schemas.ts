import { z } from 'zod';
import { badRequest } from './webhook.errors';

/** `text is required` for a missing field, `text must be a string` for a wrong type. */
const required = (kind: string) => ({
  error: (issue: { input?: unknown }) =>
    issue.input === undefined ? 'is required' : `must be ${kind}`
});
const name = z.string(required('a string')).min(1, 'must not be empty').max(256, 'is too long');
const freeForm = z.record(z.string(), z.unknown(), required('an object'));

export const wakeBody = z.object({
  text: z.string(required('a string')).min(1, 'must not be empty'),
  metadata: freeForm.optional(),
  mode: z
    .enum(['now', 'next-heartbeat'], { error: 'must be "now" or "next-heartbeat"' })
    .optional(),
  agent: name.optional()
});
export type WakeBody = z.infer<typeof wakeBody>;

export const agentBody = z.object({
  message: z.string(required('a string')).min(1, 'must not be empty'),
  model: name.optional(),
  channel: name.optional(),
  session: name.optional(),
  context: freeForm.optional(),
  agent: name.optional()
});
export type AgentBody = z.infer<typeof agentBody>;

/** Validates a parsed body; the 400 names the first field at fault. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('Body must be a JSON object');
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw badRequest(`${issue.path.join('.') || 'body'} ${issue.message}`);
}
