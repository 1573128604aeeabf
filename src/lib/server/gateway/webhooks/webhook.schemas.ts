import { z } from 'zod';
import {
  agentNameSchema,
  channelSchema,
  messageTextSchema,
  sessionKeySchema
} from '$lib/contracts/fields';
import { badRequest } from './webhook.errors';

const freeForm = z.record(z.string(), z.unknown());

export const wakeBody = z.object({
  text: messageTextSchema,
  metadata: freeForm.optional(),
  mode: z
    .enum(['now', 'next-heartbeat'], { error: 'must be "now" or "next-heartbeat"' })
    .optional(),
  agent: agentNameSchema.optional()
});
export type WakeBody = z.infer<typeof wakeBody>;

export const agentBody = z.object({
  message: messageTextSchema,
  model: z.string().min(1, 'must not be empty').max(256, 'is too long').optional(),
  channel: channelSchema.optional(),
  session: sessionKeySchema.optional(),
  context: freeForm.optional(),
  agent: agentNameSchema.optional(),
  /** `announce`: the result also goes to the agent's main session and outbound webhooks. */
  delivery: z.enum(['announce', 'none'], { error: 'must be "announce" or "none"' }).optional(),
  /** Hold the answer until the turn ends (at most `waitMs`): 200 with its result, else 202. */
  wait: z.boolean({ error: 'must be true or false' }).optional(),
  waitMs: z
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(0, 'must not be negative')
    .max(120_000, 'must be at most 120000')
    .optional()
});
export type AgentBody = z.infer<typeof agentBody>;

/** Validates a parsed body; the 400 names the first field at fault. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('Body must be a JSON object');
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw badRequest(`${issue.path.join('.') || 'body'} ${issueText(issue)}`);
}

/** What a JSON value of each expected type is called in a message. */
const KINDS: Record<string, string> = {
  string: 'a string',
  record: 'an object',
  object: 'an object'
};

/** `is required` for a missing field, `must be a string` for a wrong type, else the schema's. */
function issueText(issue: z.ZodError['issues'][number]): string {
  if (issue.code !== 'invalid_type') return issue.message;
  if (issue.input === undefined) return 'is required';
  return `must be ${KINDS[issue.expected] ?? issue.expected}`;
}
