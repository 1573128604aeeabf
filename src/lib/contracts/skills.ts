import { z } from 'zod';
import type { SkillInfo, SkillRunRecord } from './assistant';

/**
 * Skill definitions: one schema for berth.yaml's `skills:` and the console's, and the console's
 * tRPC inputs and views (router `skills.*`). Builtin skills ship with Berth and have no
 * definition here.
 */

/** Ids a definition may take: also what a run, a tool name and an audit entry show. */
export const definedSkillIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be 1 to 64 lower-case letters, digits, - and _');

/** A JSON Schema (draft 2020-12 subset) for a skill's params; an object schema at the root. */
export const paramsSchemaSchema = z
  .record(z.string(), z.unknown())
  .refine((s) => s.type === undefined || s.type === 'object', 'must describe an object')
  .default({ type: 'object' });

const common = {
  id: definedSkillIdSchema,
  name: z.string().min(1).max(100).optional(),
  description: z.string().max(2000).default(''),
  paramsSchema: paramsSchemaSchema,
  timeoutMs: z.number().int().min(100).max(600_000).default(30_000)
};

export const containerSkillSchema = z.strictObject({
  ...common,
  kind: z.literal('container'),
  /** Engine name (Settings → Engines); `local` by default. */
  engine: z.string().min(1).max(63).default('local'),
  image: z.string().min(1).max(512),
  command: z.array(z.string().max(10_000)).max(256).optional(),
  memoryMb: z.number().int().min(6).max(65_536).default(256),
  /** CPUs (fractions allowed), as the engine's NanoCpus / 1e9. */
  cpus: z.number().min(0.01).max(64).default(1),
  /** No network unless declared. */
  network: z.boolean().default(false),
  /** stdout kept as the result, at most this many bytes; more fails the run. */
  outputMaxBytes: z
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(1024 * 1024)
});

export const httpSkillSchema = z.strictObject({
  ...common,
  kind: z.literal('http'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).default({}),
  /** `{params.x}` placeholders are replaced (JSON-escaped inside a JSON body). */
  body: z.string().max(100_000).optional(),
  /** Hosts this skill may reach, besides its url's own; loopback, private and link-local
   * addresses are refused after DNS unless `allowPrivate` is set. */
  allowHosts: z.array(z.string().min(1).max(253)).default([]),
  allowPrivate: z.boolean().default(false),
  responseMaxBytes: z
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(1024 * 1024)
});

export const skillDefinitionSchema = z.discriminatedUnion('kind', [
  containerSkillSchema,
  httpSkillSchema
]);
export type SkillDefinition = z.output<typeof skillDefinitionSchema>;
export type SkillDefinitionInput = z.input<typeof skillDefinitionSchema>;

/** Where a skill comes from: shipped with Berth, berth.yaml (read-only), or the console. */
export type SkillSource = 'builtin' | 'file' | 'database';

/** The console's view of a skill: the registry entry plus its definition when it has one. */
export interface SkillView extends SkillInfo {
  source: SkillSource;
  definition: SkillDefinition | null;
  /** A console skill whose id the config file now declares: kept, listed, never run. */
  shadowed: boolean;
  /** When a console skill was last saved; null for builtin and file skills. */
  updatedAt: number | null;
}

/** tRPC inputs of `skills.*`. */
export const skillIdInput = z.object({ id: z.string().min(1).max(100) });
export const saveSkillInput = z.object({ definition: skillDefinitionSchema });
export const runSkillInput = z.object({
  id: z.string().min(1).max(100),
  params: z.record(z.string(), z.unknown())
});
/** A container skill from an image the build-file studio built (its image id, on its engine). */
export const skillFromBuildInput = z.object({
  buildId: z.string().min(1).max(100),
  id: definedSkillIdSchema,
  description: z.string().max(2000).optional()
});
export const skillRunsInput = z.object({
  skillId: z.string().min(1).max(100).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(100).default(25)
});

export interface SkillRunsPage {
  runs: SkillRunRecord[];
  nextCursor: string | null;
}
