import { errorMessage } from '$lib/client/trpc';
import { LiveRoom } from './live-room.svelte';

/** An Activity row as the `activity` channel names it. */
export interface ActivityRef {
  kind: string;
  id: string;
}

/**
 * One turn's or event's details for its Activity page: read once, then again whenever the
 * `activity` channel says something it concerns moved on. Browser only: start() from onMount.
 */
export class ActivityDetail<T> {
  detail = $state.raw<T | null>(null);
  failure = $state<string | null>(null);

  readonly #read: () => Promise<T>;
  readonly #room: LiveRoom;

  constructor(read: () => Promise<T>, concerns: (item: ActivityRef, detail: T | null) => boolean) {
    this.#read = read;
    this.#room = new LiveRoom('activity', (socket) => {
      const changed = ({ item }: { item: ActivityRef }) => {
        if (concerns(item, this.detail)) void this.load();
      };
      socket.on('activity.item', changed);
      return () => socket.off('activity.item', changed);
    });
  }

  async load(): Promise<void> {
    try {
      this.detail = await this.#read();
      this.failure = null;
    } catch (err) {
      this.failure = errorMessage(err);
    }
  }

  /** Returns the function that stops listening, fit to return from onMount. */
  start(): () => void {
    void this.load();
    return this.#room.start();
  }
}
