import { describe, expect, it } from 'vitest';
import { topicPattern } from '$lib/contracts/rpc-topics';
import { DomainBus } from '../../domain/bus';
import { topicMatches, watchBus, type Push } from './rpc.topics';

describe('rpc topics', () => {
  it('matches exact names, groups and everything', () => {
    expect(topicMatches('turn.*', 'turn.completed')).toBe(true);
    expect(topicMatches('turn.*', 'turnip.x')).toBe(false);
    expect(topicMatches('message.delta', 'message.delta')).toBe(true);
    expect(topicMatches('message.delta', 'message.created')).toBe(false);
    expect(topicMatches('*', 'agent.changed')).toBe(true);
  });

  it('accepts only known patterns', () => {
    for (const ok of ['turn.*', 'event.done', 'session.compacted', 'agent.changed', '*'])
      expect(topicPattern.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['turn', 'turn.exploded', 'users.*', '**', ''])
      expect(topicPattern.safeParse(bad).success, bad).toBe(false);
  });

  it('turns domain events into topics', () => {
    const bus = new DomainBus();
    const seen: Push[] = [];
    const off = watchBus(bus, (p) => seen.push(p));
    bus.emit('session.changed', { sessionId: 's', agentName: 'main', change: 'compacted' });
    bus.emit('message.delta', { turnId: 't', sessionId: 's', agentName: 'main', text: 'hi' });
    bus.emit('agent.changed', { name: 'main', change: 'state', state: 'idle' });
    off();
    bus.emit('agent.changed', { name: 'main', change: 'state', state: 'idle' });
    expect(seen.map((p) => [p.topic, p.agentName])).toEqual([
      ['session.compacted', 'main'],
      ['message.delta', 'main'],
      ['agent.changed', 'main']
    ]);
  });
});
