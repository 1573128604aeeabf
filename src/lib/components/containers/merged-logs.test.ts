import { describe, expect, it } from 'vitest';
import { SOURCE_COLOURS } from '$lib/state/log-viewer.svelte';
import {
  MERGED_LOGS_MAX,
  freeSlot,
  containerPageRef,
  isContainerRef,
  refersTo,
  mergedLogsHref,
  parseMergedLogsQuery
} from './merged-logs';

const parse = (query: string) => parseMergedLogsQuery(new URLSearchParams(query));

describe('the merged logs address', () => {
  it('reads the engine and the containers in order, without repeats', () => {
    expect(parse('engine=edge-1&c=web&c=0123456789ab&c=web&c=db.1')).toEqual({
      engine: 'edge-1',
      refs: ['web', '0123456789ab', 'db.1'],
      problem: null
    });
  });

  it('defaults to the local engine and no containers', () => {
    expect(parse('')).toEqual({ engine: 'local', refs: [], problem: null });
  });

  it('drops what could reach another engine path and says so', () => {
    const q = parse('engine=local&c=web&c=../images&c=a%3Fb&c=-x&c=a%2F..');
    expect(q.refs).toEqual(['web']);
    expect(q.problem).toBe('not a container name or id: "../images", "a?b", "-x", "a/..".');
  });

  it('refuses an engine name the channel would not take', () => {
    const q = parse('engine=Bad%20One&c=web');
    expect(q).toMatchObject({ engine: 'local', refs: ['web'] });
    expect(q.problem).toContain('"Bad One" is not an engine name; showing local');
  });

  it('keeps the first containers up to the limit and says how many were asked', () => {
    const asked = Array.from({ length: MERGED_LOGS_MAX + 2 }, (_, i) => `c${i}`);
    const q = parse(asked.map((c) => `c=${c}`).join('&'));
    expect(q.refs).toEqual(asked.slice(0, MERGED_LOGS_MAX));
    expect(q.problem).toBe(
      `${MERGED_LOGS_MAX + 2} containers asked; at most ${MERGED_LOGS_MAX} at once, so the first ${MERGED_LOGS_MAX} are shown.`
    );
  });

  it('writes an address that reads back to the same selection', () => {
    const href = mergedLogsHref('local', ['web', 'db_1', 'a.b-c']);
    expect(href).toBe('/containers/logs?engine=local&c=web&c=db_1&c=a.b-c');
    expect(parseMergedLogsQuery(new URL(href, 'http://x').searchParams)).toEqual({
      engine: 'local',
      refs: ['web', 'db_1', 'a.b-c'],
      problem: null
    });
    expect(mergedLogsHref('local', [])).toBe('/containers/logs?engine=local');
  });

  it('limits a reference to what the log channel takes', () => {
    expect(isContainerRef('a'.repeat(128))).toBe(true);
    expect(isContainerRef('a'.repeat(129))).toBe(false);
    expect(isContainerRef('')).toBe(false);
  });

  it('allows as many containers as the viewer has distinct colours', () => {
    expect(MERGED_LOGS_MAX).toBe(SOURCE_COLOURS.length);
  });

  it('gives a new container the lowest colour slot not in use', () => {
    expect(freeSlot([])).toBe(0);
    expect(freeSlot([0, 1, 3])).toBe(2);
    expect(freeSlot([1, 0])).toBe(2);
  });

  it('knows a container by its name, its id or its short id', () => {
    const c = { name: 'web', id: 'a'.repeat(12) + 'b'.repeat(52) };
    expect(refersTo('web', c)).toBe(true);
    expect(refersTo(c.id, c)).toBe(true);
    expect(refersTo('a'.repeat(12), c)).toBe(true);
    expect(refersTo('aaaa', c)).toBe(false);
    expect(refersTo('we', c)).toBe(false);
  });

  it('sends a container named logs to its page by id, away from the merged page', () => {
    expect(containerPageRef('web', 'abc123abc123')).toBe('web');
    expect(containerPageRef('logs', 'abc123abc123')).toBe('abc123abc123');
  });
});
