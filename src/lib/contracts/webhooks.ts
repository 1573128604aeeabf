import { z } from 'zod';
import { credentialNameSchema } from './credentials';
import { agentNameSchema, sessionKeySchema } from './fields';

/**
 * Webhook mappings, webhook tokens and the delivery log: one mapping schema for berth.yaml's
 * `webhooks.mappings` and the console's, and the console's tRPC inputs and views.
 */

/** A path segment that would reach an object's prototype; templates never resolve one either. */
const PROTOTYPE_SEGMENT = /(?:^|[.[\]])(?:__proto__|prototype|constructor)(?:[.[\]]|$)/;

export const matchKeySchema = z
  .string()
  .regex(/^(headers|body)\./, 'must start with headers. or body.')
  .refine(
    (key) => !PROTOTYPE_SEGMENT.test(key),
    'must not name __proto__, prototype or constructor (a condition there could never hold)'
  );

export const MAPPING_MESSAGE_MAX = 10_000;

/** What a mapping does: the conditions a delivery must meet, then the turn it queues. */
export const webhookMappingSchema = z.strictObject({
  match: z.record(matchKeySchema, z.unknown()).default({}),
  message: z
    .string()
    .min(1, 'must not be empty')
    .max(MAPPING_MESSAGE_MAX, `must be at most ${MAPPING_MESSAGE_MAX} characters`),
  session: sessionKeySchema.optional(),
  model: z.string().min(1, 'must not be empty').max(256, 'is too long').optional(),
  agent: agentNameSchema.optional(),
  delivery: z.enum(['announce', 'none']).default('announce')
});
export type WebhookMapping = z.output<typeof webhookMappingSchema>;
export type WebhookMappingInput = z.input<typeof webhookMappingSchema>;

/** `wake` and `agent` are the built-in routes beside the mappings. */
export const BUILTIN_HOOKS = ['wake', 'agent'] as const;

export const mappingNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - and _')
  .refine(
    (name) => !(BUILTIN_HOOKS as readonly string[]).includes(name),
    'wake and agent are the built-in webhooks; choose another name'
  );

export const mappingNameInput = z.object({ name: mappingNameSchema });
export const saveMappingInput = webhookMappingSchema.extend({ name: mappingNameSchema });
export type SaveMappingInput = z.input<typeof saveMappingInput>;

export type MappingSource = 'file' | 'database';

export interface MappingView {
  name: string;
  mapping: WebhookMapping;
  source: MappingSource;
  /** A database mapping whose name the file also declares: the file's is in force. */
  shadowed: boolean;
  createdAt: number | null;
  updatedAt: number | null;
}

/** The wizard's preview: a mapping against a sample delivery, on the server's own code. */
export const previewMappingInput = z.object({
  mapping: webhookMappingSchema,
  headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
  body: z.unknown()
});

/**
 * `signing`: the token is also a GitHub webhook "Secret": Berth keeps it (not only its hash) to
 * verify `X-Hub-Signature-256` on requests that carry no token.
 */
export const createWebhookTokenInput = z.object({
  name: credentialNameSchema,
  signing: z.boolean().default(false)
});
export const webhookTokenIdInput = z.object({ id: z.string().min(1).max(200) });

export interface WebhookTokenView {
  id: string;
  name: string;
  /** The secret's first characters; null for the file's `webhooks.token`. */
  prefix: string | null;
  source: MappingSource;
  /** Also verifies GitHub's `X-Hub-Signature-256` (the secret is kept on the server). */
  signing: boolean;
  createdAt: number | null;
  rotatedAt: number | null;
  lastUsedAt: number | null;
}

/** A token as created or rotated: the secret appears here once and is never stored. */
export interface WebhookTokenSecret {
  id: string;
  name: string;
  token: string;
  signing: boolean;
}

export const DELIVERY_KINDS = ['wake', 'agent', 'mapping'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

export const listDeliveriesInput = z.object({
  mapping: z.string().max(64).optional(),
  status: z.number().int().min(100).max(599).optional(),
  /** The id of the last row of the page before; rows come newest first. */
  before: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(200).default(50)
});
export type ListDeliveriesInput = z.input<typeof listDeliveriesInput>;

export const deliveryIdInput = z.object({ id: z.number().int().positive() });

export interface DeliverySummary {
  id: number;
  receivedAt: number;
  kind: DeliveryKind;
  /** The mapping's name, or `wake` / `agent`. */
  mapping: string;
  status: number;
  /** Null when the request never reached a mapping (refused, not found, bad body). */
  matched: boolean | null;
  eventId: string | null;
  turnId: string | null;
  durationMs: number;
  /** The delivery this one re-ran, if it is a re-run. */
  rerunOf: number | null;
  /** The session the caused turn runs in (for the log's link); null without a turn. */
  sessionId: string | null;
}

export interface DeliveryDetail extends DeliverySummary {
  /** The JSON body as received (null once expired or when none was read), cut at the cap. */
  payload: string | null;
  payloadTruncated: boolean;
  /** Headers without credentials or anything named like a secret. */
  headers: Record<string, string>;
  error: string | null;
}

/** The wizard's capture endpoint: one real delivery, caught for the wizard only. */
export const captureIdInput = z.object({ id: z.string().regex(/^[a-z0-9]{16,40}$/) });

export interface CaptureOpened {
  id: string;
  /** The capture's own token: shown once, kept only as a hash. */
  token: string;
  expiresAt: number;
}

export interface CapturedDelivery {
  receivedAt: number;
  /** Headers without credentials or anything named like a secret. */
  headers: Record<string, string>;
  body: unknown;
}

export interface CaptureStatus {
  id: string;
  expiresAt: number;
  /** Null until the delivery arrives. */
  delivery: CapturedDelivery | null;
}

/** "Send test delivery": a sample run through a mapping as the route runs it. */
export const testDeliveryInput = z.object({
  name: mappingNameSchema,
  headers: z.record(z.string().max(256), z.string().max(8_192)).default({}),
  body: z.unknown()
});
export type TestDeliveryInput = z.input<typeof testDeliveryInput>;
