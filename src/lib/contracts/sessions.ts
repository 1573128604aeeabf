import { z } from 'zod';

/** The console's Sessions page: a filtered, paged list and one session's transcript. */
export const sessionListInput = z.object({
  agent: z.string().trim().min(1).max(64).optional(),
  /** Sessions with at least one message from this channel (`rest:ci`, `webhook:github`…). */
  channel: z.string().trim().min(1).max(200).optional(),
  /** Last active on or after / before these epoch ms (the page sends the reader's local days). */
  since: z.number().int().nonnegative().optional(),
  until: z.number().int().nonnegative().optional(),
  /** Plain text in the session key, any case. */
  search: z.string().trim().max(200).optional(),
  cursor: z.string().max(400).optional(),
  limit: z.number().int().min(1).max(100).default(50)
});
export type SessionListInput = z.input<typeof sessionListInput>;
export type SessionFilter = Pick<
  z.infer<typeof sessionListInput>,
  'agent' | 'channel' | 'since' | 'until' | 'search'
>;

export const sessionGetInput = z.object({
  sessionId: z.string().min(1).max(200),
  /** A message id: the page of messages before it. */
  before: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(200).default(50)
});

export const sessionIdInput = z.object({ sessionId: z.string().min(1).max(200) });
