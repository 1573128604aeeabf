import type { ConfigSource, ConfigValue } from '$lib/contracts/config-view';
import type { BerthConfig } from './config.schema';

export type { ConfigValue };

type Env = Record<string, string | undefined>;

/** A value under one of these names (or anywhere under `headers`) is shown masked. */
const SECRET = /(^|[a-z])(token|key|secret|password|apikey)$/i;

/**
 * The configuration in force as leaves (`gateway.rest.apiKeys[0].role`), each with where it
 * came from: the file, the environment (`${NAME}` in the file, or HOST/PORT), or the default.
 */
export function describeConfig(config: BerthConfig, raw: unknown, env: Env): ConfigValue[] {
  const rows: ConfigValue[] = [];
  walk(config, raw, [], false, rows, env);
  return rows;
}

function walk(
  value: unknown,
  raw: unknown,
  path: (string | number)[],
  secret: boolean,
  rows: ConfigValue[],
  env: Env
): void {
  const isObject = value !== null && typeof value === 'object';
  if (isObject && !(Array.isArray(value) && value.every((v) => typeof v !== 'object'))) {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [i, v] as const)
      : Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) rows.push(row(path, value, raw, secret, env));
    for (const [key, child] of entries) {
      const rawChild =
        raw !== null && typeof raw === 'object'
          ? (raw as Record<string | number, unknown>)[key]
          : undefined;
      const hidden = secret || (typeof key === 'string' && (SECRET.test(key) || key === 'headers'));
      walk(child, rawChild, [...path, key], hidden, rows, env);
    }
    return;
  }
  rows.push(row(path, value, raw, secret, env));
}

function row(
  path: (string | number)[],
  value: unknown,
  raw: unknown,
  secret: boolean,
  env: Env
): ConfigValue {
  const key = path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join('');
  let source: ConfigSource = raw === undefined ? 'default' : 'file';
  let variable: string | null = null;
  const named = typeof raw === 'string' ? /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(raw) : null;
  if (named) {
    source = 'environment';
    variable = named[1]!;
  }
  for (const [name, at] of [
    ['HOST', 'server.host'],
    ['PORT', 'server.port']
  ] as const)
    if (key === at && env[name]) {
      source = 'environment';
      variable = name;
    }
  const shown =
    secret && value !== '' && value !== null && value !== undefined
      ? '••••••'
      : JSON.stringify(value ?? null);
  return { key, value: shown, source, variable, secret };
}
