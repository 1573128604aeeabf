import type { IncomingMessage } from 'node:http';
import type { PruneReport } from '$lib/contracts/engine';
import type { EngineClient } from './engine.client';
import { pruneContainers } from './containers';
import { pruneImages } from './images';
import { pruneNetworks } from './networks';
import { pruneVolumes } from './volumes';

/** System operations of the spec, on one engine. */
const get = async <T>(e: EngineClient, path: string, what: string) =>
  e.call<T>({ method: 'GET', path, what }).then((r) => r.body);

export const engineInfo = async (e: EngineClient) =>
  get<Record<string, unknown>>(e, '/info', 'engine info');
export const engineVersion = async (e: EngineClient) =>
  get<Record<string, unknown>>(e, '/version', 'engine version');
export const diskUsage = async (e: EngineClient) =>
  get<Record<string, unknown>>(e, '/system/df', 'disk usage');
export const ping = async (e: EngineClient) => e.check();

/** The raw event stream: JSON lines whose chunk boundaries do not match lines. */
export async function engineEvents(
  e: EngineClient,
  input: { since?: number; until?: number; type?: string[]; event?: string[] }
): Promise<IncomingMessage> {
  const filters: Record<string, string[]> = {};
  if (input.type?.length) filters.type = input.type;
  if (input.event?.length) filters.event = input.event;
  return e.stream({
    method: 'GET',
    path: '/events',
    query: {
      since: input.since,
      until: input.until,
      filters: Object.keys(filters).length ? filters : undefined
    },
    what: 'the event stream'
  });
}

/**
 * The spec's system prune (four booleans) done with the four prune endpoints, in the engine's
 * order: containers first, so the images, networks and volumes they held can go too.
 */
export async function systemPrune(
  e: EngineClient,
  what: {
    containers: boolean;
    images: boolean;
    networks: boolean;
    volumes: boolean;
    label?: string[];
  }
): Promise<PruneReport> {
  const report: PruneReport = {
    removed: { containers: [], images: [], networks: [], volumes: [] },
    spaceReclaimed: 0
  };
  const steps = [
    ['containers', pruneContainers],
    ['networks', pruneNetworks],
    ['volumes', pruneVolumes],
    ['images', pruneImages]
  ] as const;
  for (const [kind, prune] of steps) {
    if (!what[kind]) continue;
    const { removed, spaceReclaimed } = await prune(e, what.label);
    report.removed[kind] = removed;
    report.spaceReclaimed += spaceReclaimed;
  }
  return report;
}
