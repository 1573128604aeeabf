import type { DomainBus } from '../../domain/bus';

/**
 * Push topics of /rpc/ws: every domain event becomes one topic name `<group>.<name>` (the names
 * and the subscription patterns are in `$lib/contracts/rpc-topics`).
 */

/** True when a subscription pattern covers the topic. */
export function topicMatches(pattern: string, topic: string): boolean {
  if (pattern === '*' || pattern === topic) return true;
  return pattern.endsWith('.*') && topic.startsWith(pattern.slice(0, -1));
}

export interface Push {
  topic: string;
  agentName: string;
  data: unknown;
}

/** Listens to the domain bus and hands each event on as a topic; returns the unsubscriber. */
export function watchBus(bus: DomainBus, push: (p: Push) => void): () => void {
  const offs = [
    bus.on('turn.changed', (t) =>
      push({ topic: `turn.${t.state}`, agentName: t.agentName, data: t })
    ),
    bus.on('message.delta', (m) =>
      push({ topic: 'message.delta', agentName: m.agentName, data: m })
    ),
    // The console user behind a message (userId) is the console's to show, not the RPC's.
    bus.on('message.created', ({ userId: _, ...m }) =>
      push({ topic: 'message.created', agentName: m.agentName, data: m })
    ),
    bus.on('event.changed', (e) =>
      push({ topic: `event.${e.state}`, agentName: e.agentName, data: e })
    ),
    bus.on('session.changed', (s) =>
      push({ topic: `session.${s.change}`, agentName: s.agentName, data: s })
    ),
    bus.on('agent.changed', (a) => push({ topic: 'agent.changed', agentName: a.name, data: a }))
  ];
  return () => offs.forEach((off) => off());
}
