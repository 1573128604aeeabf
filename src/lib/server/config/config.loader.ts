import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import type { z } from 'zod';
import { configSchema, type BerthConfig } from './config.schema';

export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(
    message: string,
    readonly issues: string[] = [message]
  ) {
    super(message);
  }
}

export interface LoadedConfig {
  config: BerthConfig;
  /** Absolute path of the file read, or null when running on defaults. */
  file: string | null;
  /** The file as written (before `${NAME}` expansion): where each value came from. */
  raw?: unknown;
}

type Env = Record<string, string | undefined>;

/** The file named by BERTH_CONFIG, else ./berth.yaml when present, else none. */
export function configPath(env: Env, cwd = process.cwd()): string | null {
  if (env.BERTH_CONFIG) return resolve(cwd, env.BERTH_CONFIG);
  const fallback = resolve(cwd, 'berth.yaml');
  return existsSync(fallback) ? fallback : null;
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): LoadedConfig {
  const file = configPath(env, cwd);
  let raw: unknown = {};
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(
        `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`
      );
    }
    try {
      raw = parse(text, { maxAliasCount: 100 }) ?? {};
    } catch (err) {
      throw new ConfigError(`${file}: invalid YAML: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  return { config: parseConfig(raw, env, file ?? 'defaults'), file, raw };
}

export function parseConfig(raw: unknown, env: Env, label = 'config'): BerthConfig {
  // Unset variables and reserved keys: problems found before the schema runs.
  const problems: string[] = [];
  const expanded = expandEnv(raw, env, [], problems);
  if (problems.length) throw new ConfigError(`${label}: ${problems.join('; ')}`, problems);
  const withOverrides = applyEnvOverrides(expanded, env);
  const result = configSchema.safeParse(withOverrides);
  if (!result.success) {
    const issues = formatIssues(result.error.issues);
    throw new ConfigError(`${label}: ${issues.join('; ')}`, issues);
  }
  return result.data;
}

/** Replaces `${NAME}` in every string value with the environment's value. */
function expandEnv(
  value: unknown,
  env: Env,
  path: (string | number)[],
  problems: string[]
): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const found = env[name];
      if (found === undefined) {
        problems.push(`${keyPath(path)}: environment variable ${name} is not set`);
        return '';
      }
      return found;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => expandEnv(v, env, [...path, i], problems));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // Assigning it would replace `out`'s prototype and silently drop the entry.
      if (k === '__proto__') {
        problems.push(`${keyPath([...path, k])}: reserved key`);
        continue;
      }
      out[k] = expandEnv(v, env, [...path, k], problems);
    }
    return out;
  }
  return value;
}

function applyEnvOverrides(value: unknown, env: Env): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (value !== null && value !== undefined && typeof value !== 'object') return value;
    value = {};
  }
  const root = { ...(value as Record<string, unknown>) };
  const server = { ...((root.server as Record<string, unknown> | undefined) ?? {}) };
  if (env.HOST) server.host = env.HOST;
  if (env.PORT) server.port = /^\d+$/.test(env.PORT) ? Number(env.PORT) : env.PORT;
  root.server = server;
  return root;
}

function keyPath(path: readonly PropertyKey[]): string {
  if (!path.length) return '(root)';
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('');
}

function formatIssues(issues: z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const base = issue.path.length ? `${keyPath(issue.path)}.` : '';
      return issue.keys.map((k) => `${base}${k}: unknown key`).join('; ');
    }
    // A record key's own rule (e.g. a match key) says more than "Invalid key in record".
    if (issue.code === 'invalid_key')
      return `${keyPath(issue.path)}: ${issue.issues.map((i) => i.message).join('; ')}`;
    return `${keyPath(issue.path)}: ${issue.message}`;
  });
}

/** Top-level and second-level key paths whose values differ, for reload reports. */
export function diffConfig(a: BerthConfig, b: BerthConfig): string[] {
  const changes: string[] = [];
  for (const key of Object.keys(b) as (keyof BerthConfig)[]) {
    const left = a[key] as unknown;
    const right = b[key] as unknown;
    if (JSON.stringify(left) === JSON.stringify(right)) continue;
    if (
      left &&
      right &&
      typeof left === 'object' &&
      typeof right === 'object' &&
      !Array.isArray(right)
    ) {
      const subKeys = new Set([...Object.keys(left), ...Object.keys(right)]);
      for (const sub of subKeys) {
        const l = (left as Record<string, unknown>)[sub];
        const r = (right as Record<string, unknown>)[sub];
        if (JSON.stringify(l) !== JSON.stringify(r)) changes.push(`${key}.${sub}`);
      }
    } else changes.push(key);
  }
  return changes;
}
