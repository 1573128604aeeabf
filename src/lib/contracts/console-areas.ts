import type { Role } from './roles';

export interface ConsoleArea {
  slug: string;
  label: string;
  group: 'Assistant' | 'Integrations' | 'Engine' | 'Insight' | 'Admin';
  /** One sentence on what will live there, shown until the area is built. */
  planned?: string;
  minRole: Role;
}

/**
 * The console's areas, in sidebar order, and the role each needs: the sidebar is drawn from this
 * table (components/nav/areas.ts) and the server's route guard reads each area's role from it
 * (server/console/route-access.ts). A built area has its own route directory, `/<slug>`, and no
 * `planned` sentence; a planned one is served by the `[area]` placeholder page.
 */
export const CONSOLE_AREAS: readonly ConsoleArea[] = [
  {
    slug: 'agents',
    label: 'Agents',
    group: 'Assistant',
    minRole: 'viewer'
  },
  {
    slug: 'chat',
    label: 'Chat',
    group: 'Assistant',
    minRole: 'viewer'
  },
  {
    slug: 'sessions',
    label: 'Sessions',
    group: 'Assistant',
    minRole: 'viewer'
  },
  {
    slug: 'skills',
    label: 'Skills',
    group: 'Assistant',
    minRole: 'viewer'
  },
  {
    slug: 'activity',
    label: 'Activity',
    group: 'Assistant',
    minRole: 'viewer'
  },
  {
    slug: 'webhooks',
    label: 'Webhooks',
    group: 'Integrations',
    minRole: 'operator'
  },
  {
    slug: 'tokens',
    label: 'Tokens',
    group: 'Integrations',
    minRole: 'admin'
  },
  {
    slug: 'containers',
    label: 'Containers',
    group: 'Engine',
    minRole: 'viewer'
  },
  {
    slug: 'images',
    label: 'Images',
    group: 'Engine',
    minRole: 'viewer'
  },
  {
    slug: 'networks',
    label: 'Networks',
    group: 'Engine',
    minRole: 'viewer'
  },
  {
    slug: 'volumes',
    label: 'Volumes',
    group: 'Engine',
    minRole: 'viewer'
  },
  {
    slug: 'build-files',
    label: 'Build files',
    group: 'Engine',
    minRole: 'viewer'
  },
  {
    slug: 'engine',
    label: 'Engine',
    group: 'Engine',
    minRole: 'viewer'
  },
  {
    slug: 'usage',
    label: 'Usage',
    group: 'Insight',
    minRole: 'viewer'
  },
  { slug: 'audit', label: 'Audit', group: 'Insight', minRole: 'admin' },
  {
    slug: 'settings',
    label: 'Settings',
    group: 'Admin',
    minRole: 'admin'
  },
  { slug: 'users', label: 'Users', group: 'Admin', minRole: 'admin' }
];

export const PLANNED_AREAS = CONSOLE_AREAS.filter((a): a is ConsoleArea & { planned: string } =>
  Boolean(a.planned)
);
