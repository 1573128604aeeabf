import { z } from 'zod';
import { agentSettingsSchema } from '$lib/contracts/agents';
import { agentNameSchema } from '$lib/contracts/fields';
import { roleSchema } from '$lib/contracts/roles';
import { skillDefinitionSchema } from '$lib/contracts/skills';
import { webhookMappingSchema } from '$lib/contracts/webhooks';

const rpcToken = z.strictObject({
  name: z.string().min(1),
  token: z.string().min(16, 'must be at least 16 characters'),
  permissions: z.array(z.string().min(1)).min(1).default(['*'])
});

const apiKey = z.strictObject({
  name: z.string().min(1),
  key: z.string().min(16, 'must be at least 16 characters'),
  role: roleSchema.default('operator')
});

/** Up to ten minutes; 0 answers 202 at once. */
const waitMs = z.number().int().min(0).max(600_000);

/** A remote engine; `local` is the machine's own (its socket or DOCKER_HOST). */
const engine = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/)
    .refine((name) => name !== 'local', 'the name local is the local engine'),
  /** tcp://host:2376, or a host name with `port` (default 2376 with TLS, else 2375). */
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535).optional(),
  /** File paths (PEM), read by the server only: the key is never logged or shown. */
  tls: z.strictObject({ ca: z.string().optional(), cert: z.string(), key: z.string() }).optional()
});

/** Credentials for pulls from a private registry, sent to the engine only (X-Registry-Auth). */
const registry = z.strictObject({
  /** The registry host as image names spell it: `registry.example.com`, `127.0.0.1:5000`. */
  server: z.string().regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/),
  username: z.string().min(1),
  password: z.string().min(1)
});

/**
 * When a session is compacted on its own: its size reaches `budgetTokens` (the last turn's
 * prompt + completion tokens as the provider reported them, else its characters / 4); all but
 * the newest `keepMessages` uncompacted messages are then summarised. 0 turns it off.
 */
export const compactionSchema = z.strictObject({
  budgetTokens: z.number().int().min(0).max(10_000_000).default(24_000),
  keepMessages: z.number().int().min(1).max(500).default(4)
});

/**
 * An outbound webhook of an agent: its `announce` turns' results are POSTed there, signed as
 * Standard Webhooks specifies with `secret` (`whsec_` + base64, or a `${ENV}` reference).
 */
export const outboundEndpointSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }),
  secret: z
    .string()
    .regex(
      /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/,
      'must be whsec_ followed by base64 (24 bytes or more)'
    ),
  events: z
    .array(z.enum(['turn.completed', 'turn.failed']))
    .min(1)
    .default(['turn.completed', 'turn.failed']),
  /** Loopback, private and link-local addresses are refused unless this is set. */
  allowPrivate: z.boolean().default(false)
});

/** A config agent: the console's agent contract, any-case names, `builtin` unless named. */
const agent = agentSettingsSchema.extend({
  name: agentNameSchema,
  provider: agentSettingsSchema.shape.provider.default('builtin'),
  /** Overrides `sessions.compaction` for this agent's sessions. */
  compaction: compactionSchema.optional(),
  outbound: z.array(outboundEndpointSchema).max(20).default([])
});

/** An OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, vLLM, llama.cpp, LM Studio). */
export const providerSettingsSchema = z.strictObject({
  type: z.literal('openai'),
  /** The API root, e.g. `http://127.0.0.1:11434/v1`: `/chat/completions` and `/models` follow. */
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKey: z.string().optional(),
  /** The model when the agent names none. */
  model: z.string().min(1).optional(),
  /** Extra request headers (an organisation id, a gateway's own key …). */
  headers: z.record(z.string().min(1), z.string()).optional(),
  /** Longest wait for the answer to start, and then between two streamed chunks. */
  timeoutMs: z.number().int().min(100).max(600_000).default(60_000),
  /** Tries of one request on 429 and 5xx answers, the first included. */
  maxAttempts: z.number().int().min(1).max(10).default(3),
  /** Tool calls one turn may make; one more fails the turn. */
  maxToolCalls: z.number().int().min(1).max(100).default(8)
});

/** A webhook session prefix: `webhook:` or the like; an empty one would allow every session. */
const sessionPrefix = z
  .string()
  .min(1, 'must not be empty (it would let a webhook write into every session)')
  .max(256);

export const configSchema = z.strictObject({
  server: z
    .strictObject({
      host: z.string().min(1).default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(18789)
    })
    .prefault({}),
  database: z
    .strictObject({
      path: z.string().min(1).optional(),
      // normal: a commit survives a crash of Berth, not a power cut; full: both (slower writes).
      synchronous: z.enum(['normal', 'full']).default('normal')
    })
    .prefault({}),
  gateway: z
    .strictObject({
      rpc: z
        .strictObject({
          enabled: z.boolean().default(true),
          auth: z
            .strictObject({
              type: z.enum(['bearer', 'none']).default('bearer'),
              tokens: z.array(rpcToken).default([])
            })
            .prefault({}),
          ws: z
            .strictObject({
              // Authenticated connections; those still to send `auth` have their own cap.
              maxConnections: z.number().int().min(1).default(1000),
              maxPending: z.number().int().min(1).default(100),
              maxPendingPerAddress: z.number().int().min(1).default(10),
              authTimeoutMs: z.number().int().min(100).max(60_000).default(2000)
            })
            .prefault({})
        })
        .prefault({}),
      rest: z
        .strictObject({
          apiKeys: z.array(apiKey).default([]),
          // How long POST /chat/send and /skills/trigger hold the request before answering 202.
          waitMs: waitMs.default(60_000),
          skillWaitMs: waitMs.default(30_000)
        })
        .prefault({}),
      // Failed authentications per client address (REST, RPC, webhooks together): past
      // maxFailures in windowMs every request from that address gets 429 until the window ends.
      authThrottle: z
        .strictObject({
          maxFailures: z.number().int().min(1).default(20),
          windowMs: z.number().int().min(1000).max(86_400_000).default(60_000)
        })
        .prefault({}),
      // Turns from every interface: how many run at once, and how many may wait per agent.
      turns: z
        .strictObject({
          maxRunning: z.number().int().min(1).max(1000).default(8),
          maxRunningPerAgent: z.number().int().min(1).max(1000).default(2),
          maxQueuedPerAgent: z.number().int().min(1).default(1000)
        })
        .prefault({})
    })
    .prefault({}),
  webhooks: z
    .strictObject({
      enabled: z.boolean().default(false),
      token: z.string().min(16, 'must be at least 16 characters').optional(),
      path: z
        .string()
        .regex(/^\/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$/, 'must be an absolute path like /hooks')
        .default('/hooks'),
      rateLimit: z
        .strictObject({
          maxRequests: z.number().int().min(1).default(100),
          windowMs: z.number().int().min(100).default(60_000)
        })
        .prefault({}),
      mappings: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/), webhookMappingSchema).default({}),
      // What a sender of /agent may choose; mappings are the operator's and are not limited.
      allowedSessionPrefixes: z.array(sessionPrefix).default(['webhook:']),
      /** Models a sender may name in /agent's `model`; `'*'` allows any, none (default) refuses all. */
      allowedModels: z.array(z.string().min(1).max(256)).default([]),
      /** The longest `waitMs` a sender of /agent with `wait: true` gets (at most 120 s). */
      maxWaitMs: z.number().int().min(0).max(120_000).default(120_000)
    })
    .prefault({}),
  sessions: z.strictObject({ compaction: compactionSchema.prefault({}) }).prefault({}),
  // Announce delivery to agents' outbound webhooks: the waits between tries (after the
  // first, each with ±20% jitter; a delivery fails after the last) and one try's time-out.
  outbound: z
    .strictObject({
      retryDelaysMs: z
        .array(z.number().int().min(100).max(86_400_000))
        .max(20)
        .default([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]),
      timeoutMs: z.number().int().min(100).max(60_000).default(10_000)
    })
    .prefault({}),
  engines: z
    .array(engine)
    .default([])
    .refine((list) => new Set(list.map((e) => e.name)).size === list.length, {
      message: 'engine names must be unique'
    }),
  registries: z.array(registry).default([]),
  agents: z.array(agent).prefault([{ name: 'main', provider: 'builtin', heartbeatMs: 30_000 }]),
  providers: z.record(z.string(), providerSettingsSchema).default({}),
  skills: z
    .array(skillDefinitionSchema)
    .default([])
    .refine((list) => new Set(list.map((s) => s.id)).size === list.length, {
      message: 'skill ids must be unique'
    })
});

export type BerthConfig = z.infer<typeof configSchema>;
