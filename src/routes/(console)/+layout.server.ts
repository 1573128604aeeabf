import { error } from '@sveltejs/kit';
import type { LayoutServerLoad } from './$types';

// hooks.server.ts has already refused anyone not signed in; this only hands the user down.
export const load: LayoutServerLoad = ({ locals }) => {
  if (!locals.user) error(401, 'Sign in first');
  return { user: locals.user };
};
