import { consoleSocket } from '$lib/client/socket';
import type { PullLayer } from '$lib/contracts/exec';

export type PullStatus = 'pulling' | 'done' | 'failed';

/**
 * One image pull over the console's socket, with its layers as the engine last reported them.
 * The socket carries the progress of every pull it started; this one keeps its own `ref`.
 * Browser only: start() from onMount, and call the function it returns on destroy.
 */
export class ImagePull {
  status = $state<PullStatus>('pulling');
  layers = $state<PullLayer[]>([]);
  error = $state<string | null>(null);

  constructor(
    private readonly input: { engine: string; ref: string; tag: string },
    private readonly done?: (result: { ok: boolean; error?: string }) => void
  ) {}

  start(): () => void {
    const socket = consoleSocket();
    const name = `${this.input.ref}:${this.input.tag}`;
    const onProgress = (p: { ref: string; layers: PullLayer[] }) => {
      if (p.ref === name) this.layers = p.layers;
    };
    const onDone = (d: { ref: string; ok: boolean; error?: string }) => {
      if (d.ref === name) this.#finish(d);
    };
    const onDisconnect = () =>
      this.#finish({ ok: false, error: 'the connection to Berth was lost' });
    socket.on('image.pull.progress', onProgress);
    socket.on('image.pull.done', onDone);
    socket.on('disconnect', onDisconnect);
    socket.emit('image.pull', this.input, (result) => {
      if (!result.ok) this.#finish(result);
    });
    return () => {
      socket.off('image.pull.progress', onProgress);
      socket.off('image.pull.done', onDone);
      socket.off('disconnect', onDisconnect);
    };
  }

  #finish(result: { ok: boolean; error?: string }): void {
    if (this.status !== 'pulling') return;
    this.status = result.ok ? 'done' : 'failed';
    this.error = result.ok ? null : (result.error ?? 'the pull failed');
    this.done?.(result);
  }
}

/** A layer's share done, 0 to 1; null when the engine gave no byte counts. */
export function layerShare(layer: PullLayer): number | null {
  if (/complete|already exists/i.test(layer.status)) return 1;
  if (!layer.total || layer.current === undefined) return null;
  return Math.min(1, layer.current / layer.total);
}
