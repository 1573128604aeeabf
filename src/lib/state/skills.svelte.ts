import { trpc } from '$lib/client/trpc';
import type { SkillRunRecord } from '$lib/contracts/assistant';
import type { SkillDefinitionInput, SkillView } from '$lib/contracts/skills';

/**
 * A registry entry's key: the id, or `<id>@console` for a console skill the file's one of the
 * same id shadows (both are listed).
 */
export const entryKey = (s: SkillView): string => (s.shadowed ? `${s.id}@console` : s.id);

/** The Skills page's registry: every skill (builtin, file, console), searchable. */
export class SkillsState {
  skills = $state<SkillView[]>([]);
  loaded = $state(false);
  failed = $state<unknown>(null);
  query = $state('');

  readonly filtered = $derived.by(() => {
    const q = this.query.trim().toLowerCase();
    if (!q) return this.skills;
    return this.skills.filter((s) =>
      [s.id, s.name, s.description, s.kind, s.source].some((t) => t.toLowerCase().includes(q))
    );
  });

  async load(): Promise<void> {
    try {
      this.skills = await trpc.skills.list.query();
      this.failed = null;
    } catch (err) {
      this.failed = err;
    } finally {
      this.loaded = true;
    }
  }

  byKey(key: string | null): SkillView | null {
    return this.skills.find((s) => entryKey(s) === key) ?? null;
  }

  async save(definition: SkillDefinitionInput): Promise<SkillView> {
    const saved = await trpc.skills.save.mutate({ definition });
    await this.load();
    return saved;
  }

  async remove(id: string): Promise<void> {
    await trpc.skills.remove.mutate({ id });
    this.skills = this.skills.filter((s) => s.id !== id);
  }

  async trigger(id: string, params: Record<string, unknown>): Promise<string> {
    const { runId } = await trpc.skills.trigger.mutate({ id, params });
    return runId;
  }
}

/** One skill's run history, newest first, a page at a time. */
export class SkillRunsState {
  runs = $state<SkillRunRecord[]>([]);
  next = $state<string | null>(null);
  loaded = $state(false);
  busy = $state(false);
  failed = $state<unknown>(null);

  constructor(private readonly skillId: string) {}

  async load(): Promise<void> {
    await this.#page(undefined);
  }

  async more(): Promise<void> {
    if (this.next) await this.#page(this.next);
  }

  /** A run started or ended here: shown at once, without refetching the page. */
  upsert(run: SkillRunRecord): void {
    const at = this.runs.findIndex((r) => r.runId === run.runId);
    if (at >= 0) this.runs[at] = run;
    else this.runs.unshift(run);
  }

  async #page(cursor: string | undefined): Promise<void> {
    this.busy = true;
    try {
      const page = await trpc.skills.runs.query({ skillId: this.skillId, cursor, limit: 20 });
      const known = cursor ? this.runs.map((r) => r.runId) : [];
      // JSON drops an undefined output: the record says null.
      const runs = page.runs.map((r) => ({ ...r, output: r.output ?? null }));
      const fresh = runs.filter((r) => !known.includes(r.runId));
      this.runs = cursor ? [...this.runs, ...fresh] : runs;
      this.next = page.nextCursor;
      this.failed = null;
    } catch (err) {
      this.failed = err;
    } finally {
      this.loaded = true;
      this.busy = false;
    }
  }
}
