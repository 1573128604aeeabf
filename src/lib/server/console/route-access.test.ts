import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONSOLE_AREAS } from '$lib/contracts/console-areas';
import { accessFor, safeNext } from './route-access';

/** (console) pages that are not areas: every signed-in user may open them. */
const NOT_AREAS = ['[area]', 'account'];

describe('route access', () => {
  it('needs sign-in for console routes, with the longest prefix deciding the role', () => {
    expect(accessFor('/(auth)/login')).toEqual({ kind: 'public' });
    expect(accessFor(null)).toEqual({ kind: 'public' });
    expect(accessFor('/(console)')).toEqual({ kind: 'signed-in', role: 'viewer' });
    expect(accessFor('/(console)/[area]')).toEqual({ kind: 'signed-in', role: 'viewer' });
    expect(accessFor('/(console)/users')).toEqual({ kind: 'signed-in', role: 'admin' });
    expect(accessFor('/(console)/users/[id]')).toEqual({ kind: 'signed-in', role: 'admin' });
    expect(accessFor('/(console)/usersx')).toEqual({ kind: 'signed-in', role: 'viewer' });
  });

  it("guards each area's routes with the role the console-areas table gives it", () => {
    for (const area of CONSOLE_AREAS)
      for (const route of [`/(console)/${area.slug}`, `/(console)/${area.slug}/[id]/edit`])
        expect(accessFor(route), route).toEqual({ kind: 'signed-in', role: area.minRole });
  });

  it('has a table entry for every (console) page directory, and a directory for every built area', () => {
    const consoleRoutes = new URL('../../../routes/(console)/', import.meta.url);
    const directories = readdirSync(consoleRoutes, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !NOT_AREAS.includes(entry.name))
      .map((entry) => entry.name)
      .sort();
    // A page missing from the table would open to every viewer, and the sidebar would not list it.
    const built = CONSOLE_AREAS.filter((a) => !a.planned).map((a) => a.slug);
    expect(directories).toEqual([...built].sort());
    for (const name of NOT_AREAS)
      expect(accessFor(`/(console)/${name}`)).toEqual({ kind: 'signed-in', role: 'viewer' });
  });

  it('follows `next` only to local paths', () => {
    expect(safeNext('/users?x=1', 'admin')).toBe('/users?x=1');
    for (const bad of [
      null,
      '',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'users'
    ])
      expect(safeNext(bad, 'admin'), String(bad)).toBe('/');
  });

  it('follows `next` only to a page the role may see', () => {
    expect(safeNext('/users?x=1', 'viewer')).toBe('/');
    expect(safeNext('/users/abc', 'operator')).toBe('/');
    expect(safeNext('/containers/web?engine=local', 'viewer')).toBe('/containers/web?engine=local');
    expect(safeNext('/account', 'viewer')).toBe('/account');
    // A prefix of an area's slug is not that area.
    expect(safeNext('/usersettings', 'viewer')).toBe('/usersettings');
  });
});
