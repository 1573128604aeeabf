import { ContainerLogChannel } from './container-log-channel.svelte';
import { sourceColour, type LogFeed } from './log-viewer.svelte';
import { freeSlot } from '$lib/components/containers/merged-logs';

/** One container of the merged view: its channel and its palette slot (its colour). */
export interface MergedContainer {
  ref: string;
  slot: number;
  colour: string;
  channel: ContainerLogChannel;
  /** Leaves the channel. */
  stop: () => void;
}

/**
 * The merged logs page: one ContainerLogChannel per chosen container, all feeding the same
 * LogViewer. Adding a container joins its channel (its tail merges in by time); removing one,
 * or switching engine, starts over (`generation` changes, the page remounts the viewer and every
 * channel joins again), since the viewer cannot drop one container's lines. Browser only.
 */
export class MergedLogs {
  engine = $state('local');
  containers = $state.raw<MergedContainer[]>([]);
  /** Changes whenever the viewer must start empty. */
  generation = $state(0);

  readonly #feed: () => LogFeed | undefined;

  constructor(feed: () => LogFeed | undefined) {
    this.#feed = feed;
  }

  /** Shows these containers of this engine (already validated, at most the limit). */
  set(engine: string, refs: readonly string[]): void {
    const old = (ref: string) => this.containers.find((c) => c.ref === ref);
    const sameEngine = engine === this.engine;
    const reset = !sameEngine || this.containers.some((c) => !refs.includes(c.ref));
    // A container that stays keeps its colour; a new one takes the first free.
    const taken = sameEngine ? refs.flatMap((r) => old(r)?.slot ?? []) : [];
    if (reset) {
      this.stop();
      this.engine = engine;
      this.generation++;
    }
    const next: MergedContainer[] = [];
    for (const ref of refs) {
      const current = sameEngine ? old(ref) : undefined;
      if (current && !reset) {
        next.push(current);
        continue;
      }
      let slot = current?.slot;
      if (slot === undefined) {
        slot = freeSlot(taken);
        taken.push(slot);
      }
      const channel = new ContainerLogChannel(engine, ref, ref, this.#feed);
      next.push({ ref, slot, colour: sourceColour(slot), channel, stop: channel.start() });
    }
    this.containers = next;
  }

  /** Leaves every channel; from onMount's cleanup. */
  stop(): void {
    for (const c of this.containers) c.stop();
  }
}
