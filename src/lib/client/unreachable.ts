import { TRPCClientError } from '@trpc/client';

/** Said whenever the browser could not reach Berth at all, instead of the browser's own words. */
export const UNREACHABLE =
  'Berth cannot be reached: it may be stopped or restarting, or the network is down. Try again in a moment.';

/**
 * A request that never got an answer from Berth: fetch rejects with a TypeError ("Failed to
 * fetch" in Chromium, "NetworkError…" in Firefox, "Load failed" in Safari), and a proxy in
 * front answers 502, 503 or 504 without Berth's JSON.
 */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof TRPCClientError) {
    const status = (err.data as { httpStatus?: number } | undefined)?.httpStatus;
    if (status === undefined && err.cause instanceof TypeError) return true;
    return (
      err.cause === undefined && /^(Failed to fetch|NetworkError|Load failed)/.test(err.message)
    );
  }
  return err instanceof TypeError && /fetch|network|load failed/i.test(err.message);
}
