import { performance } from 'node:perf_hooks';

/** How often the event loop is looked at, and how busy it may be to count as quiet. */
const LOOK_EVERY_MS = 2_000;
const QUIET_BELOW = 0.05;
/** Looks before giving up: a server busy from its start keeps what it grew, and uses it. */
const LOOKS = 30;

/**
 * Once the server has started and its event loop is quiet (busy less than 5% of 2 s), one
 * memory-reducing collection gives back what starting grew: loading the modules grows V8's
 * young generation to its largest (two 8 MiB semi-spaces, scripts/server-node-flags) and
 * nothing shrinks it while no collection runs, about 20 MiB of RSS kept by an idle server. The
 * collection holds the loop for about 75 ms, once. It needs `--expose-gc` (in the same flags);
 * without it nothing is done. Returns a stop for shutdown.
 */
export function settleWhenQuiet(
  gc: typeof globalThis.gc = globalThis.gc,
  every = LOOK_EVERY_MS
): () => void {
  if (!gc) return () => {};
  let since = performance.eventLoopUtilization();
  let looks = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, since).utilization;
    since = now;
    if (busy < QUIET_BELOW) gc({ type: 'major', flavor: 'last-resort' });
    if (busy < QUIET_BELOW || ++looks >= LOOKS) clearInterval(timer);
  }, every).unref();
  return () => clearInterval(timer);
}
