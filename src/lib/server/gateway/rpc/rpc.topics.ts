import { z } from 'zod';
import type { DomainBus } from '../../domain/bus';

/**
 * Push topics of /rpc/ws. Every domain event becomes one topic name `<group>.<name>`;
 * subscribers ask for exact names or a whole group (`turn.*`), or everything (`*`).
 */
export const TOPICS = {
  turn: ['queued', 'running', 'completed', 'failed', 'cancelled'],
  message: ['delta', 'created'],
  event: ['queued', 'processing', 'done', 'failed'],
  session: ['created', 'compacted', 'deleted'],
  agent: ['changed']
} as const;

export const MAX_TOPICS = 32;

const known = new Set<string>([
  '*',
  ...Object.entries(TOPICS).flatMap(([group, names]) => [
    `${group}.*`,
    ...names.map((n) => `${group}.${n}`)
  ])
]);

export const topicPattern = z
  .string()
  .max(64)
  .refine((t) => known.has(t), {
    message: `unknown topic; use exact names such as turn.completed or groups: ${Object.keys(TOPICS)
      .map((g) => `${g}.*`)
      .join(', ')}`
  });

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
    bus.on('message.created', (m) =>
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
