import { errorMessage, trpc } from '$lib/client/trpc';
import type { ProviderAddInput, ProviderSetting } from '$lib/contracts/providers';

/** What the last "test connection" of a provider found: its models, or why it failed. */
export type ProviderTest =
  { state: 'testing' } | { state: 'ok'; models: string[] } | { state: 'error'; text: string };

/** Settings → Providers: berth.yaml's and the console's providers, through tRPC. */
export class ProviderSettingsState {
  providers = $state<ProviderSetting[]>([]);
  loaded = $state(false);
  tests = $state<Record<string, ProviderTest>>({});

  async load(): Promise<void> {
    this.providers = await trpc.providers.list.query();
    this.loaded = true;
  }

  async add(input: ProviderAddInput): Promise<void> {
    await trpc.providers.add.mutate(input);
    await this.load();
  }

  async update(input: ProviderAddInput): Promise<void> {
    await trpc.providers.update.mutate(input);
    delete this.tests[input.name];
    await this.load();
  }

  async remove(name: string): Promise<void> {
    await trpc.providers.remove.mutate({ name });
    this.providers = this.providers.filter((p) => p.name !== name);
    delete this.tests[name];
  }

  /** Never throws: the outcome is kept per provider and shown in its row. */
  async test(name: string): Promise<void> {
    this.tests[name] = { state: 'testing' };
    try {
      const { models } = await trpc.providers.test.mutate({ name });
      this.tests[name] = { state: 'ok', models };
    } catch (err) {
      this.tests[name] = { state: 'error', text: errorMessage(err) };
    }
  }
}
