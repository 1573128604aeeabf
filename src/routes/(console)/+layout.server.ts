import { error } from '@sveltejs/kit';
import type { LayoutServerLoad } from './$types';

// hooks.server.ts has already sent anyone not signed in to /login, and refused other methods.
export const load: LayoutServerLoad = ({ locals }) => {
  if (!locals.user) error(401, 'Sign in first');
  if (locals.deniedFor) error(403, `This page needs the ${locals.deniedFor} role`);
  return { user: locals.user };
};
