import { describe, expect, it } from 'vitest';
import { areasFor, sidebarGroups } from './areas';

const slugs = (groups: ReturnType<typeof sidebarGroups>) =>
  groups.map(([group, areas]) => [group, areas.map((a) => a.slug)]);

describe('sidebar areas', () => {
  it('lists for each role only the areas its role opens, grouped in table order', () => {
    expect(slugs(sidebarGroups('viewer'))).toEqual([
      ['Assistant', ['agents', 'chat', 'sessions', 'skills', 'activity']],
      ['Engine', ['containers', 'images', 'networks', 'volumes', 'build-files', 'engine']],
      ['Insight', ['usage']]
    ]);
    expect(slugs(sidebarGroups('operator')).map(([group]) => group)).toEqual([
      'Assistant',
      'Integrations',
      'Engine',
      'Insight'
    ]);
    expect(areasFor('operator').map((a) => a.slug)).toContain('build-files');
    expect(areasFor('operator').map((a) => a.slug)).not.toContain('tokens');
    expect(slugs(sidebarGroups('admin')).at(-1)).toEqual(['Admin', ['settings', 'users']]);
  });
});
