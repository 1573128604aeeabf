/**
 * Which containers use which network and volume, read from the container list (its summaries
 * carry `NetworkSettings.Networks` and `Mounts`), so one list call serves a whole table.
 */
interface ContainerLike {
  Id: string;
  Names: string[];
  NetworkSettings?: { Networks?: Record<string, { NetworkID?: string; IPAddress?: string }> };
  Mounts?: { Type?: string; Name?: string }[];
}

export interface Attached {
  id: string;
  name: string;
  ipv4?: string;
}

const nameOf = (c: ContainerLike) => (c.Names[0] ?? c.Id.slice(0, 12)).replace(/^\//, '');

export function networkUsers(containers: readonly object[]): Map<string, Attached[]> {
  const users = new Map<string, Attached[]>();
  for (const c of containers as ContainerLike[])
    for (const net of Object.values(c.NetworkSettings?.Networks ?? {}))
      if (net.NetworkID)
        (users.get(net.NetworkID) ?? users.set(net.NetworkID, []).get(net.NetworkID)!).push({
          id: c.Id,
          name: nameOf(c),
          ipv4: net.IPAddress || undefined
        });
  return users;
}

export function volumeUsers(containers: readonly object[]): Map<string, string[]> {
  const users = new Map<string, string[]>();
  for (const c of containers as ContainerLike[])
    for (const m of c.Mounts ?? [])
      if (m.Type === 'volume' && m.Name)
        (users.get(m.Name) ?? users.set(m.Name, []).get(m.Name)!).push(nameOf(c));
  return users;
}
