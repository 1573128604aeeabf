import { z } from 'zod';

/**
 * The fields every interface shares, each defined once with its limits: REST bodies, RPC
 * params, webhook bodies, tRPC inputs and the config file all validate with these. Messages
 * read after the field's name, in each adapter's format: `agent: must …` (REST, RPC),
 * `agent must …` (webhooks); a missing field or a wrong type is phrased by the adapter.
 */

const AGENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;
/** An agent's name: it appears in session keys, URLs, logs and metrics. */
export const agentNameSchema = z
  .string()
  .regex(
    AGENT_NAME_PATTERN,
    'must be letters, digits, - and _ only (at most 63), starting with a letter or digit'
  );

export const MESSAGE_MAX = 100_000;
/** What a sender asks of an agent: one user message. */
export const messageTextSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(MESSAGE_MAX, `must be at most ${MESSAGE_MAX} characters`);

export const CHANNEL_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;
export const CHANNEL_MAX = 64;
/** Where a message came from (`slack`, `cli`, `ci` …), stored with it. */
export const channelSchema = z
  .string()
  .regex(CHANNEL_PATTERN, `must be letters, digits, . _ @ - only (at most ${CHANNEL_MAX})`);

const SESSION_KEY_MAX = 200;
/** A session's key as a sender names it (`webhook:ci`, `rest:<key>` …). */
export const sessionKeySchema = z
  .string()
  .min(1, 'must not be empty')
  .max(SESSION_KEY_MAX, `must be at most ${SESSION_KEY_MAX} characters`);

const SKILL_ID_MAX = 100;
export const skillIdSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(SKILL_ID_MAX, `must be at most ${SKILL_ID_MAX} characters`);
