import type { EngineClient } from './engine.client';
import { checkId } from './engine.ids';

/** Network operations of the spec, on one engine. */
const what = (id: string) => `network ${id}`;

export const listNetworks = async (e: EngineClient) =>
  e
    .call<Record<string, unknown>[]>({ method: 'GET', path: '/networks', what: 'the network list' })
    .then((r) => r.body);

export const inspectNetwork = async (e: EngineClient, id: string) =>
  e
    .call<Record<string, unknown>>({
      method: 'GET',
      path: `/networks/${checkId('network', id)}`,
      what: what(id)
    })
    .then((r) => r.body);

export async function createNetwork(
  e: EngineClient,
  input: {
    name: string;
    driver: string;
    subnet?: string;
    gateway?: string;
    labels: Record<string, string>;
  }
) {
  const config = input.subnet
    ? [{ Subnet: input.subnet, ...(input.gateway && { Gateway: input.gateway }) }]
    : [];
  const { body } = await e.call<{ Id: string; Warning?: string }>({
    method: 'POST',
    path: '/networks/create',
    what: what(checkId('network', input.name)),
    body: {
      Name: input.name,
      Driver: input.driver,
      CheckDuplicate: true,
      IPAM: { Driver: 'default', Config: config },
      Labels: input.labels
    }
  });
  return { id: body.Id };
}

export async function connectNetwork(
  e: EngineClient,
  id: string,
  container: string,
  ipv4Address?: string
) {
  await e.call({
    method: 'POST',
    path: `/networks/${checkId('network', id)}/connect`,
    what: `container ${checkId('container', container)} on ${what(id)}`,
    body: {
      Container: container,
      ...(ipv4Address && { EndpointConfig: { IPAMConfig: { IPv4Address: ipv4Address } } })
    }
  });
}

export async function disconnectNetwork(
  e: EngineClient,
  id: string,
  container: string,
  force: boolean
) {
  await e.call({
    method: 'POST',
    path: `/networks/${checkId('network', id)}/disconnect`,
    what: `container ${checkId('container', container)} on ${what(id)}`,
    body: { Container: container, Force: force }
  });
}

export async function removeNetwork(e: EngineClient, id: string) {
  await e.call({ method: 'DELETE', path: `/networks/${checkId('network', id)}`, what: what(id) });
}

export async function pruneNetworks(e: EngineClient, label?: string[]) {
  const { body } = await e.call<{ NetworksDeleted: string[] | null }>({
    method: 'POST',
    path: '/networks/prune',
    query: { filters: label?.length ? { label } : undefined },
    what: 'network prune'
  });
  return { removed: body.NetworksDeleted ?? [], spaceReclaimed: 0 };
}
