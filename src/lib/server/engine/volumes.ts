import type { EngineClient } from './engine.client';
import { checkId } from './engine.ids';

/** Volume operations of the spec, on one engine. */
const what = (name: string) => `volume ${name}`;

export interface VolumeSummary {
  Name: string;
  Driver: string;
  Mountpoint: string;
  Labels: Record<string, string> | null;
  CreatedAt?: string;
}

export async function listVolumes(
  e: EngineClient,
  filters: { dangling?: boolean; label?: string[] }
) {
  const f: Record<string, string[]> = {};
  if (filters.dangling !== undefined) f.dangling = [String(filters.dangling)];
  if (filters.label?.length) f.label = filters.label;
  const { body } = await e.call<{ Volumes: VolumeSummary[] | null; Warnings: string[] | null }>({
    method: 'GET',
    path: '/volumes',
    query: { filters: Object.keys(f).length ? f : undefined },
    what: 'the volume list'
  });
  return body.Volumes ?? [];
}

export async function createVolume(
  e: EngineClient,
  input: {
    name: string;
    driver: string;
    driverOpts: Record<string, string>;
    labels: Record<string, string>;
  }
) {
  const { body } = await e.call<VolumeSummary>({
    method: 'POST',
    path: '/volumes/create',
    what: what(checkId('volume', input.name)),
    body: {
      Name: input.name,
      Driver: input.driver,
      DriverOpts: input.driverOpts,
      Labels: input.labels
    }
  });
  return body;
}

export const inspectVolume = async (e: EngineClient, name: string) =>
  e
    .call<VolumeSummary>({
      method: 'GET',
      path: `/volumes/${checkId('volume', name)}`,
      what: what(name)
    })
    .then((r) => r.body);

export async function removeVolume(e: EngineClient, name: string) {
  await e.call({ method: 'DELETE', path: `/volumes/${checkId('volume', name)}`, what: what(name) });
}

export async function pruneVolumes(e: EngineClient, label?: string[]) {
  const { body } = await e.call<{ VolumesDeleted: string[] | null; SpaceReclaimed: number }>({
    method: 'POST',
    path: '/volumes/prune',
    query: { filters: label?.length ? { label } : undefined },
    what: 'volume prune'
  });
  return { removed: body.VolumesDeleted ?? [], spaceReclaimed: body.SpaceReclaimed ?? 0 };
}
