import { CONSOLE_AREAS } from '$lib/contracts/console-areas';
import { roleAtLeast, type Role } from '$lib/contracts/roles';

/**
 * Who may reach which console route, checked in hooks for every page load, form action and
 * endpoint under (console), so a layout load running in parallel can never leak a page's data.
 * An area's routes need the role the console-areas table (the sidebar's too) gives it; the
 * longest matching prefix wins; any other (console) route needs a signed-in viewer. Planned
 * areas are served by `[area]`, whose load checks the area's role itself.
 */
const MIN_ROLE: [prefix: string, role: Role][] = CONSOLE_AREAS.map((area) => [
  `/(console)/${area.slug}`,
  area.minRole
]);

export type Access = { kind: 'public' } | { kind: 'signed-in'; role: Role };

export function accessFor(routeId: string | null): Access {
  if (!routeId || !routeId.startsWith('/(console)')) return { kind: 'public' };
  let best: [string, Role] | undefined;
  for (const entry of MIN_ROLE)
    if (
      (routeId === entry[0] || routeId.startsWith(`${entry[0]}/`)) &&
      (!best || entry[0].length > best[0].length)
    )
      best = entry;
  return { kind: 'signed-in', role: best?.[1] ?? 'viewer' };
}

/**
 * A `next` parameter is followed only to a path on this site, and only to a page the role may
 * see: a viewer sent to `/users` lands on the overview, not on "Not allowed".
 */
export function safeNext(next: string | null, role: Role): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  const path = next.split(/[?#]/, 1)[0]!;
  const area = CONSOLE_AREAS.find((a) => path === `/${a.slug}` || path.startsWith(`/${a.slug}/`));
  return area && !roleAtLeast(role, area.minRole) ? '/' : next;
}
