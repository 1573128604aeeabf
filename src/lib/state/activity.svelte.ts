import { trpc } from '$lib/client/trpc';
import { matchesActivity, type ActivityFilter, type ActivityItem } from '$lib/contracts/chat';
import { LiveRoom } from './live-room.svelte';

const PAGE = 50;
const keyOf = (item: Pick<ActivityItem, 'kind' | 'id'>) => `${item.kind}:${item.id}`;
const keys = (items: ActivityItem[]): Record<string, true> =>
  Object.fromEntries(items.map((i) => [keyOf(i), true] as const));

/**
 * The Activity timeline: pages from the database for the filter, live rows from the `activity`
 * channel. A live row already shown is updated in place; a new one goes on top only while the
 * reader is at the top (`following`), else it waits in `fresh` ("N new") so nothing jumps.
 */
export class ActivityState {
  items = $state<ActivityItem[]>([]);
  fresh = $state<ActivityItem[]>([]);
  loaded = $state(false);
  next = $state<string | null>(null);
  filter = $state<ActivityFilter>({});
  following = $state(true);
  /** Live rows the server skipped for this socket (it read too slowly). */
  missed = $state(0);
  readonly room = new LiveRoom('activity', (socket) => {
    const item = ({ item }: { item: ActivityItem }) => this.#live(item);
    const gap = ({ missed }: { missed: number }) => (this.missed += missed);
    socket.on('activity.item', item);
    socket.on('activity.gap', gap);
    return () => {
      socket.off('activity.item', item);
      socket.off('activity.gap', gap);
    };
  });
  #asked = 0;

  async load(): Promise<void> {
    const asked = ++this.#asked;
    this.loaded = false;
    const page = await trpc.activity.list.query({ ...this.filter, limit: PAGE });
    if (asked !== this.#asked) return;
    this.items = page.items;
    this.next = page.nextCursor;
    this.fresh = [];
    this.missed = 0;
    this.loaded = true;
  }

  async more(): Promise<void> {
    if (!this.next) return;
    const asked = this.#asked;
    const page = await trpc.activity.list.query({ ...this.filter, cursor: this.next, limit: PAGE });
    if (asked !== this.#asked) return;
    const seen = keys(this.items);
    this.items.push(...page.items.filter((i) => !seen[keyOf(i)]));
    this.next = page.nextCursor;
  }

  /** The waiting rows go on top (the reader asked, or came back to the top). */
  showFresh(): void {
    if (!this.fresh.length) return;
    const shown = keys(this.fresh);
    this.items = [...this.fresh, ...this.items.filter((i) => !shown[keyOf(i)])];
    this.fresh = [];
  }

  setFollowing(following: boolean): void {
    this.following = following;
    if (following) this.showFresh();
  }

  #live(item: ActivityItem): void {
    if (!this.loaded || !matchesActivity(item, this.filter)) return;
    const key = keyOf(item);
    const at = this.items.findIndex((i) => keyOf(i) === key);
    if (at >= 0) {
      this.items[at] = item;
      return;
    }
    const waiting = this.fresh.findIndex((i) => keyOf(i) === key);
    if (waiting >= 0) this.fresh[waiting] = item;
    else if (this.following) this.items.unshift(item);
    else this.fresh.unshift(item);
  }
}
