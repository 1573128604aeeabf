import type { ServerResponse } from 'node:http';

/**
 * Flush consolidation for the answers written ahead of SvelteKit (after Netty's
 * FlushConsolidationHandler): each answer's headers are set at once, but its end() (still one
 * write per answer) waits for the check phase of the event-loop turn, right after the poll
 * phase that read the requests. Under load the requests of one poll are handled back to back
 * and their writes then go out back to back. Measured on the 2-core machine with wrk (many
 * connections from one client thread), this cut a small JSON-RPC call from about 85 to about
 * 50 µs of CPU: the JavaScript and the kernel's TCP path stop evicting each other from the
 * caches, and a client reading many connections is woken once per batch. A client with one
 * connection gains nothing and loses nothing: the check phase follows the poll phase directly.
 * Answers made in the check phase itself (after a group commit) are written at once instead.
 */
const queue: { res: ServerResponse; body: string | undefined }[] = [];
let scheduled = false;

export function endSoon(res: ServerResponse, body?: string): void {
  queue.push({ res, body });
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}

function flush(): void {
  scheduled = false;
  // Answers queued while flushing (none today) are taken by the same loop.
  for (let i = 0; i < queue.length; i++) {
    const { res, body } = queue[i]!;
    try {
      res.end(body);
    } catch {
      res.destroy();
    }
  }
  queue.length = 0;
}
