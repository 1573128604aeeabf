import { error } from '@sveltejs/kit';
import { CLOCK_COOKIE, parseClock } from '$lib/clock';
import type { LayoutServerLoad } from './$types';

// hooks.server.ts has already sent anyone not signed in to /login, and refused other methods.
// A page the user's role may not see is not thrown here: an error from this load would show
// outside the shell. The layout shows "Not allowed" in place of the page (whose data all comes
// through role-checked tRPC once it mounts, so it never mounts) and hooks answer 403.
export const load: LayoutServerLoad = ({ locals, cookies }) => {
  if (!locals.user) error(401, 'Sign in first');
  // Server-rendered times use the reader's zone (ui/Time.svelte).
  const clock = parseClock(cookies.get(CLOCK_COOKIE));
  return { user: locals.user, deniedFor: locals.deniedFor, clock };
};
