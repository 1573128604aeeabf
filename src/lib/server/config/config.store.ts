import { ConfigError, diffConfig, loadConfig, type LoadedConfig } from './config.loader';
import type { BerthConfig } from './config.schema';
import type { ReloadOutcome } from '$lib/contracts/config-view';
import { describeConfig, type ConfigValue } from './config.describe';

export type ReloadResult = ReloadOutcome;

/** Holds the configuration in force; a reload swaps it only when the new file is valid. */
export class ConfigStore {
  #loaded: LoadedConfig;
  readonly #listeners = new Set<(config: BerthConfig, changes: string[]) => void>();

  constructor(
    loaded: LoadedConfig,
    private readonly env: Record<string, string | undefined> = process.env
  ) {
    this.#loaded = loaded;
  }

  get current(): BerthConfig {
    return this.#loaded.config;
  }

  get file(): string | null {
    return this.#loaded.file;
  }

  /** Every value in force, where it came from, secrets masked (Settings → Configuration). */
  describe(): ConfigValue[] {
    return describeConfig(this.#loaded.config, this.#loaded.raw ?? {}, this.env);
  }

  onChange(listener: (config: BerthConfig, changes: string[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  reload(): ReloadResult {
    let next: LoadedConfig;
    try {
      next = loadConfig(this.env);
    } catch (err) {
      if (err instanceof ConfigError) return { ok: false, error: err.message, issues: err.issues };
      throw err;
    }
    const changes = diffConfig(this.#loaded.config, next.config);
    this.#loaded = next;
    if (changes.length) for (const listener of this.#listeners) listener(next.config, changes);
    return { ok: true, changes };
  }
}
