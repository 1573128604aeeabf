import { trpc } from '$lib/client/trpc';

export type ContainerSummary = Awaited<
  ReturnType<typeof trpc.engine.containers.list.query>
>[number];
export type ContainerStatus =
  'created' | 'restarting' | 'running' | 'removing' | 'paused' | 'exited' | 'dead';
export type BulkAction = 'start' | 'stop' | 'remove';

/** The name a person knows a container by: its first name without the leading slash. */
export const containerName = (c: Pick<ContainerSummary, 'Names' | 'Id'>): string =>
  c.Names[0]?.replace(/^\//, '') ?? c.Id.slice(0, 12);

/** What the filters hold; empty strings filter nothing. */
export interface ContainerFilters {
  status: ContainerStatus | '';
  label: string;
  name: string;
  ancestor: string;
}

/**
 * The Containers page: the list on one engine, read with the engine's own filters, a search
 * over what is loaded, and the selection the bulk actions work on.
 */
export class ContainersState {
  engine = $state('local');
  containers = $state.raw<ContainerSummary[]>([]);
  loaded = $state(false);
  filters = $state<ContainerFilters>({ status: '', label: '', name: '', ancestor: '' });
  search = $state('');
  selected = $state<string[]>([]);

  readonly shown = $derived.by(() => {
    const q = this.search.trim().toLowerCase();
    if (!q) return this.containers;
    return this.containers.filter((c) =>
      [containerName(c), c.Image, c.Id, c.State, c.Status].some((v) => v.toLowerCase().includes(q))
    );
  });

  async load(): Promise<void> {
    const f = this.filters;
    const one = (v: string) => (v.trim() ? [v.trim()] : undefined);
    this.containers = await trpc.engine.containers.list.query({
      engine: this.engine,
      all: true,
      filters: {
        status: f.status ? [f.status] : undefined,
        label: one(f.label),
        name: one(f.name),
        ancestor: one(f.ancestor)
      }
    });
    const ids = this.containers.map((c) => c.Id);
    this.selected = this.selected.filter((id) => ids.includes(id));
    this.loaded = true;
  }

  toggle(id: string, on: boolean): void {
    const rest = this.selected.filter((s) => s !== id);
    this.selected = on ? [...rest, id] : rest;
  }

  selectedContainers(): ContainerSummary[] {
    return this.containers.filter((c) => this.selected.includes(c.Id));
  }

  /**
   * Runs one action on every selected container, one after another, and says in words what
   * happened to each: the engine's refusals (not running, in use) are reasons, not failures.
   */
  async bulk(action: BulkAction): Promise<{ done: string[]; failed: string[] }> {
    const done: string[] = [];
    const failed: string[] = [];
    for (const c of this.selectedContainers()) {
      const ref = { engine: this.engine, id: c.Id };
      const name = containerName(c);
      try {
        if (action === 'remove')
          await trpc.engine.containers.remove.mutate({ ...ref, force: true });
        else {
          const r = await trpc.engine.containers[action].mutate(ref);
          if (!r.changed) {
            done.push(`${name} (already ${action === 'start' ? 'running' : 'stopped'})`);
            continue;
          }
        }
        done.push(name);
      } catch (err) {
        failed.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.selected = [];
    await this.load();
    return { done, failed };
  }
}
