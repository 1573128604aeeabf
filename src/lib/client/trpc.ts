import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '$lib/server/trpc/router';
import { isUnreachable, UNREACHABLE } from './unreachable';

/** The console's typed client for its own server calls (cookies ride along, same origin). */
export const trpc = createTRPCClient<AppRouter>({
  links: [httpBatchLink({ url: '/api/trpc' })]
});

/** A message fit to show a person, whatever was thrown. */
export function errorMessage(err: unknown): string {
  if (isUnreachable(err)) return UNREACHABLE;
  if (err instanceof TRPCClientError) {
    const zodIssues = /^\s*\[/.test(err.message) ? tryIssues(err.message) : null;
    return zodIssues ?? err.message;
  }
  return err instanceof Error ? err.message : 'Something went wrong';
}

function tryIssues(text: string): string | null {
  try {
    const issues = JSON.parse(text) as { path?: (string | number)[]; message: string }[];
    return issues
      .map((i) => (i.path?.length ? `${i.path.join('.')}: ${i.message}` : i.message))
      .join('; ');
  } catch {
    return null;
  }
}
