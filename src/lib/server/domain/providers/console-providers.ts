import { providerSettingsSchema } from '../../config/config.schema';
import type {
  ConsoleProviderRow,
  ProviderRepository
} from '../../db/repositories/provider.repository';
import type { ProviderSettings } from './provider.registry';

/**
 * The providers added in the console, as `providers:` entries with the file's defaults
 * (time-out, attempts, tool-call limit). The entries stay the same objects until the console
 * changes its providers, so meanwhile the registry keeps the provider it built from each.
 */
export class ConsoleProviders {
  #settings: Record<string, ProviderSettings> = {};

  constructor(private readonly repo: ProviderRepository) {
    this.#reload();
  }

  settings(): Record<string, ProviderSettings> {
    return this.#settings;
  }

  rows(): ConsoleProviderRow[] {
    return this.repo.list();
  }

  get(name: string): ConsoleProviderRow | undefined {
    return this.repo.get(name);
  }

  insert(row: ConsoleProviderRow): void {
    this.repo.insert(row);
    this.#reload();
  }

  update(
    name: string,
    changes: Pick<ConsoleProviderRow, 'baseUrl' | 'model' | 'updatedAt'> & {
      apiKey?: string;
    }
  ): void {
    this.repo.update(name, changes);
    this.#reload();
  }

  delete(name: string): void {
    this.repo.delete(name);
    this.#reload();
  }

  #reload(): void {
    this.#settings = Object.fromEntries(
      this.repo.list().map((row) => [
        row.name,
        providerSettingsSchema.parse({
          type: 'openai',
          baseUrl: row.baseUrl,
          ...(row.model ? { model: row.model } : {}),
          ...(row.apiKey ? { apiKey: row.apiKey } : {})
        })
      ])
    );
  }
}
