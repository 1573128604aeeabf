import { error } from '@sveltejs/kit';
import { roleAtLeast } from '$lib/contracts/roles';
import { PLANNED_AREAS } from '$lib/contracts/console-areas';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = ({ params, locals }) => {
  const area = PLANNED_AREAS.find((a) => a.slug === params.area);
  if (!area) error(404, 'No such page');
  if (!locals.user || !roleAtLeast(locals.user.role, area.minRole))
    error(403, `This page needs the ${area.minRole} role`);
  return { area };
};
