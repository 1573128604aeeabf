import { trpc } from '$lib/client/trpc';
import type { EngineSetting } from '$lib/components/engine/types';
import type { EngineAddInput } from '$lib/contracts/engine';

/** Settings → Engines: the registry's engines with health, added and removed through tRPC. */
export class EngineSettingsState {
  engines = $state<EngineSetting[]>([]);
  loaded = $state(false);

  async load(): Promise<void> {
    this.engines = await trpc.engine.settings.list.query();
    this.loaded = true;
  }

  async add(input: EngineAddInput): Promise<void> {
    await trpc.engine.settings.add.mutate(input);
    await this.load();
  }

  async remove(name: string): Promise<void> {
    await trpc.engine.settings.remove.mutate({ name });
    this.engines = this.engines.filter((e) => e.name !== name);
  }
}
