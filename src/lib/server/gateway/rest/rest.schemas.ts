import { z } from 'zod';
import {
  agentNameSchema,
  messageTextSchema,
  sessionKeySchema,
  skillIdSchema
} from '$lib/contracts/fields';
import { HttpProblem } from './problem';

/**
 * REST v1 request bodies. Required/optional is Berth's decision (the spec leaves it open):
 * `message` and `skill_id` are required, the rest optional. Unknown fields are ignored so
 * clients written against a later version still work.
 */
export const chatSendBody = z.object({
  message: messageTextSchema,
  stream: z.boolean().optional(),
  skill_ids: z.array(skillIdSchema).max(100).optional(),
  agent: agentNameSchema.optional(),
  session: sessionKeySchema.optional()
});
export type ChatSendBody = z.infer<typeof chatSendBody>;

export const skillTriggerBody = z.object({
  skill_id: skillIdSchema,
  params: z.record(z.string(), z.unknown()).optional()
});
export type SkillTriggerBody = z.infer<typeof skillTriggerBody>;

/** Parses a body; a failure is a 400 naming the field (mapped in problem.ts). */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpProblem(400, 'the body must be a JSON object');
  return schema.parse(body);
}
