import { CONSOLE_AREAS, type ConsoleArea } from '$lib/contracts/console-areas';
import { roleAtLeast, type Role } from '$lib/contracts/roles';

type Group = ConsoleArea['group'];

/** Groups in the order their first area appears in the table. */
const GROUP_ORDER = [...new Set(CONSOLE_AREAS.map((a) => a.group))];

/** The areas a role may open, in table order. */
export function areasFor(role: Role): ConsoleArea[] {
  return CONSOLE_AREAS.filter((a) => roleAtLeast(role, a.minRole));
}

/** The sidebar's groups for a role, leaving out those it has no area in. */
export function sidebarGroups(role: Role): [Group, ConsoleArea[]][] {
  const visible = areasFor(role);
  return GROUP_ORDER.map((group): [Group, ConsoleArea[]] => [
    group,
    visible.filter((a) => a.group === group)
  ]).filter(([, areas]) => areas.length > 0);
}
