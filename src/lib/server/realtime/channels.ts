import { CHANNELS, type ChannelKind, type ChannelParams } from '$lib/contracts/realtime';
import type { DomainBus } from '../domain/bus';
import type { ChannelKindDef, Publish, Stop } from './channel-hub';

type Sources = { [K in ChannelKind]: (params: ChannelParams<K>, publish: Publish) => Stop };

export interface ChannelDeps {
  bus: DomainBus;
}

/**
 * The source behind each channel kind of the contract; the type makes a kind without a source
 * a compile error. Listening on the bus only while someone watches costs nothing today, and is
 * the shape engine logs, stats and build output need (a stream per container, opened on demand).
 */
export function consoleChannels({ bus }: ChannelDeps): Record<string, ChannelKindDef<unknown>> {
  const sources: Sources = {
    audit: (_, publish) => bus.on('audit.appended', (entry) => publish('audit.appended', entry)),
    users: (_, publish) => bus.on('user.changed', (user) => publish('user.changed', user)),
    agents: (_, publish) => bus.on('agent.changed', (change) => publish('agent.changed', change))
  };
  return Object.fromEntries(
    Object.entries(CHANNELS).map(([kind, spec]) => [
      kind,
      { ...spec, start: sources[kind as ChannelKind] }
    ])
  );
}
