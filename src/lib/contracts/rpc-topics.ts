import { z } from 'zod';

/**
 * Push topics of /rpc/ws (events.subscribe's params). Every domain event becomes one topic name `<group>.<name>`;
 * subscribers ask for exact names or a whole group (`turn.*`), or everything (`*`).
 */
export const TOPICS = {
  turn: ['queued', 'running', 'completed', 'failed', 'cancelled'],
  message: ['delta', 'created'],
  event: ['queued', 'processing', 'done', 'failed'],
  session: ['created', 'compacted', 'deleted'],
  agent: ['changed']
} as const;

export const MAX_TOPICS = 32;

const known = new Set<string>([
  '*',
  ...Object.entries(TOPICS).flatMap(([group, names]) => [
    `${group}.*`,
    ...names.map((n) => `${group}.${n}`)
  ])
]);

export const topicPattern = z
  .string()
  .max(64)
  .refine((t) => known.has(t), {
    message: `unknown topic; use exact names such as turn.completed or groups: ${Object.keys(TOPICS)
      .map((g) => `${g}.*`)
      .join(', ')}`
  });
