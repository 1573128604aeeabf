/** Settings → Configuration: one value in force and where it came from. */
export type ConfigSource = 'file' | 'environment' | 'default';

export interface ConfigValue {
  /** `gateway.rest.apiKeys[0].role` */
  key: string;
  /** JSON of the value, or •••••• for a secret. */
  value: string;
  source: ConfigSource;
  /** The environment variable it came from, if any. */
  variable: string | null;
  secret: boolean;
}

export type ReloadOutcome =
  { ok: true; changes: string[] } | { ok: false; error: string; issues: string[] };
