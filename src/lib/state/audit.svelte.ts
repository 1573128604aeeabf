import { trpc } from '$lib/client/trpc';
import { auditMatches, type AuditEntry, type AuditFilter } from '$lib/contracts/audit';

const PAGE_SIZE = 50;

/** The audit log, newest first: pages of older entries below, live entries on top. */
export class AuditState {
  entries = $state<AuditEntry[]>([]);
  loaded = $state(false);
  /** False once a page came back short: there is nothing older. */
  hasOlder = $state(true);

  filter = $state<AuditFilter>({});
  #asked = 0;

  /** The first page for the current filter; an answer overtaken by a newer one is dropped. */
  async load(): Promise<void> {
    const asked = ++this.#asked;
    const page = await trpc.audit.list.query({ limit: PAGE_SIZE, ...this.#query() });
    if (asked !== this.#asked) return;
    this.entries = page;
    this.hasOlder = page.length === PAGE_SIZE;
    this.loaded = true;
  }

  async loadOlder(): Promise<void> {
    const last = this.entries.at(-1);
    const page = await trpc.audit.list.query({
      limit: PAGE_SIZE,
      before: last?.id,
      ...this.#query()
    });
    // Ids only grow, so anything at or above the last one shown is already here.
    this.entries.push(...page.filter((e) => last === undefined || e.id < last.id));
    this.hasOlder = page.length === PAGE_SIZE;
  }

  #query(): AuditFilter {
    return {
      action: this.filter.action || undefined,
      search: this.filter.search?.trim() || undefined
    };
  }

  prepend(entry: AuditEntry): void {
    if (!auditMatches(entry, this.#query())) return;
    if (this.entries.some((e) => e.id === entry.id)) return;
    this.entries.unshift(entry);
  }
}
