import { z } from 'zod';
import { isValidEngineId, type EngineIdKind } from './engine-ids';

/** Inputs of the engine operations, shared by tRPC and the domain. */
const id = (kind: EngineIdKind) =>
  z.string().refine((v) => isValidEngineId(kind, v), `not a valid ${kind} name or id`);

export const engineNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/)
  .default('local');
export const containerIdSchema = id('container');
export const imageRefSchema = id('image');
export const networkIdSchema = id('network');
export const volumeNameSchema = id('volume');
export const execIdSchema = id('exec');

const labels = z.record(z.string().min(1).max(255), z.string().max(4096));
const filterValues = z.array(z.string().min(1).max(255)).max(20).optional();
const portSpec = z.string().regex(/^\d{1,5}\/(tcp|udp|sctp)$/, 'a port is <number>/<tcp|udp|sctp>');

export const containerListSchema = z.strictObject({
  engine: engineNameSchema,
  all: z.boolean().default(true),
  filters: z
    .strictObject({
      status: z
        .array(z.enum(['created', 'restarting', 'running', 'removing', 'paused', 'exited', 'dead']))
        .optional(),
      label: filterValues,
      name: filterValues,
      ancestor: filterValues
    })
    .default({})
});

export const containerCreateSchema = z.strictObject({
  engine: engineNameSchema,
  name: containerIdSchema.optional(),
  image: imageRefSchema,
  hostname: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,62}$/)
    .optional(),
  exposedPorts: z.array(portSpec).max(100).default([]),
  portBindings: z
    .array(
      z.strictObject({
        port: portSpec,
        hostPort: z.string().regex(/^\d{1,5}$/),
        hostIp: z.union([z.ipv4(), z.ipv6()]).optional()
      })
    )
    .max(100)
    .default([]),
  /** Bytes; the engine's floor is 6 MiB. */
  memory: z
    .number()
    .int()
    .min(6 * 1024 * 1024)
    .optional(),
  cpuShares: z.number().int().min(2).max(262_144).optional(),
  restartPolicy: z.enum(['no', 'always', 'unless-stopped', 'on-failure']).optional(),
  env: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_.]*=/, 'each is NAME=value'))
    .max(500)
    .default([]),
  cmd: z.array(z.string().max(65_536)).max(500).optional(),
  labels: labels.default({}),
  // Options that reach the host: admin only (checked in the domain).
  privileged: z.boolean().default(false),
  /** `source:target[:mode]`: a named volume, or (admin only) a host path starting with `/`. */
  binds: z
    .array(z.string().regex(/^([A-Za-z0-9][A-Za-z0-9_.-]+|\/[^:]*):\/[^:]*(:(ro|rw|z|Z))?$/))
    .max(50)
    .default([]),
  networkMode: z.string().max(255).optional(),
  pidMode: z.string().max(255).optional(),
  capAdd: z
    .array(z.string().regex(/^[A-Z_]+$/))
    .max(50)
    .default([])
});
export type ContainerCreate = z.infer<typeof containerCreateSchema>;

export const containerRefSchema = z.strictObject({
  engine: engineNameSchema,
  id: containerIdSchema
});
export const containerStopSchema = containerRefSchema.extend({
  /** Seconds to wait before killing. */
  t: z.number().int().min(0).max(3600).optional()
});
export const containerKillSchema = containerRefSchema.extend({
  signal: z
    .string()
    .regex(/^(SIG)?[A-Z0-9+-]{1,16}$/)
    .optional()
});
export const containerRemoveSchema = containerRefSchema.extend({
  force: z.boolean().default(false),
  v: z.boolean().default(false)
});
export const containerLogsSchema = containerRefSchema.extend({
  stdout: z.boolean().default(true),
  stderr: z.boolean().default(true),
  follow: z.boolean().default(false),
  tail: z.union([z.number().int().min(0), z.literal('all')]).default('all'),
  timestamps: z.boolean().default(false),
  /** Unix seconds (fractions allowed). */
  since: z.number().min(0).optional()
});
export type ContainerLogs = z.infer<typeof containerLogsSchema>;
export const execCreateSchema = containerRefSchema.extend({
  cmd: z.array(z.string().max(65_536)).min(1).max(500),
  tty: z.boolean().default(false),
  stdin: z.boolean().default(false)
});

export const imageListSchema = z.strictObject({
  engine: engineNameSchema,
  dangling: z.boolean().optional()
});
export const imageRefInputSchema = z.strictObject({
  engine: engineNameSchema,
  name: imageRefSchema
});
export const imagePullSchema = z.strictObject({
  engine: engineNameSchema,
  fromImage: imageRefSchema,
  tag: z
    .string()
    .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/)
    .default('latest')
});
export const imageRemoveSchema = imageRefInputSchema.extend({
  force: z.boolean().default(false),
  noprune: z.boolean().default(false)
});

export const networkRefSchema = z.strictObject({ engine: engineNameSchema, id: networkIdSchema });
export const networkCreateSchema = z.strictObject({
  engine: engineNameSchema,
  name: networkIdSchema,
  driver: z.enum(['bridge', 'overlay', 'macvlan', 'ipvlan']).default('bridge'),
  subnet: z.cidrv4().optional(),
  gateway: z.ipv4().optional(),
  labels: labels.default({})
});
export const networkConnectSchema = networkRefSchema.extend({
  container: containerIdSchema,
  ipv4Address: z.ipv4().optional()
});
export const networkDisconnectSchema = networkRefSchema.extend({
  container: containerIdSchema,
  force: z.boolean().default(false)
});

export const volumeListSchema = z.strictObject({
  engine: engineNameSchema,
  dangling: z.boolean().optional(),
  label: filterValues
});
export const volumeRefSchema = z.strictObject({ engine: engineNameSchema, name: volumeNameSchema });
export const volumeCreateSchema = z.strictObject({
  engine: engineNameSchema,
  name: volumeNameSchema,
  driver: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_.-]*$/)
    .default('local'),
  driverOpts: z.record(z.string().min(1).max(255), z.string().max(4096)).default({}),
  labels: labels.default({})
});

export const engineRefSchema = z.strictObject({ engine: engineNameSchema });
/** Prune limited to objects carrying these labels (`key` or `key=value`); none: everything unused. */
const pruneLabel = z.array(z.string().min(1).max(255)).max(10).optional();
export const pruneSchema = z.strictObject({ engine: engineNameSchema, label: pruneLabel });
export const eventsSchema = z.strictObject({
  engine: engineNameSchema,
  since: z.number().int().min(0).optional(),
  until: z.number().int().min(0).optional(),
  type: z.array(z.string().regex(/^[a-z]+$/)).optional(),
  event: z.array(z.string().regex(/^[a-z_:-]+$/)).optional()
});
export const systemPruneSchema = z.strictObject({
  engine: engineNameSchema,
  containers: z.boolean().default(false),
  images: z.boolean().default(false),
  networks: z.boolean().default(false),
  volumes: z.boolean().default(false),
  label: pruneLabel
});

/** What a prune removed, per kind, and the space it gave back. */
export interface PruneReport {
  removed: { containers: string[]; images: string[]; networks: string[]; volumes: string[] };
  spaceReclaimed: number;
}

/** TLS material for Settings → Engines: PEM text uploaded, or a file path on the server. */
const pemText = z
  .string()
  .max(64 * 1024)
  .regex(/^\s*-----BEGIN [A-Z0-9 ]+-----[\s\S]+-----END [A-Z0-9 ]+-----\s*$/, 'not PEM text');
const tlsMaterial = z.union([
  z.strictObject({ pem: pemText }),
  z.strictObject({ path: z.string().regex(/^\/[^\0]{0,4095}$/, 'an absolute path on the server') })
]);

export const engineAddSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'lower-case letters, digits, - and _')
    .refine((name) => name !== 'local', 'the name local is the local engine'),
  /** A host name or an IP address: no scheme, no path. */
  host: z
    .string()
    .min(1)
    .max(253)
    .regex(/^[A-Za-z0-9.:[\]-]+$/, 'a host name or an IP address'),
  port: z.number().int().min(1).max(65535).default(2376),
  ca: tlsMaterial.optional(),
  cert: tlsMaterial,
  key: tlsMaterial
});
export type EngineAddInput = z.input<typeof engineAddSchema>;

export const engineRemoveSchema = z.strictObject({ name: engineNameSchema });
