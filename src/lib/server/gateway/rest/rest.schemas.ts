import { z } from 'zod';
import { agentNameSchema } from '$lib/contracts/assistant';
import { HttpProblem } from './problem';

/**
 * REST v1 request bodies. Required/optional is Berth's decision (the spec leaves it open):
 * `message` and `skill_id` are required, the rest optional. Unknown fields are ignored so
 * clients written against a later version still work.
 */
export const chatSendBody = z.object({
  message: z.string().min(1, 'must not be empty').max(100_000),
  stream: z.boolean().optional(),
  skill_ids: z.array(z.string().min(1)).max(100).optional(),
  agent: agentNameSchema.optional(),
  session: z.string().min(1).max(200).optional()
});
export type ChatSendBody = z.infer<typeof chatSendBody>;

export const skillTriggerBody = z.object({
  skill_id: z.string().min(1),
  params: z.record(z.string(), z.unknown()).optional()
});
export type SkillTriggerBody = z.infer<typeof skillTriggerBody>;

/** Parses a body; a failure is a 400 naming the field (mapped in problem.ts). */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpProblem(400, 'the body must be a JSON object');
  return schema.parse(body);
}
