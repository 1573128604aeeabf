import { getApp } from '$lib/server/runtime';
import type { PageServerLoad } from './$types';

/**
 * The list arrives with the page, so it shows before the scripts, the tRPC calls and the live
 * connection (hooks have already refused a role that may not read agents).
 */
export const load: PageServerLoad = ({ locals }) => {
  if (!locals.user || locals.deniedFor) return { initial: null };
  const { agents } = getApp().gateway;
  return { initial: { agents: agents.views(), options: agents.options() } };
};
