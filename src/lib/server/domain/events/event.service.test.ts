import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testDomain } from '../testing';

type Domain = ReturnType<typeof testDomain>;
let domain: Domain | undefined;
afterEach(() => domain?.close());

const settled = (d: Domain, eventId: string) =>
  new Promise<void>((resolve) => {
    const check = () =>
      d.events.get(eventId).state === 'done' ? resolve() : setTimeout(check, 10);
    check();
  });

describe('EventService (real SQLite)', () => {
  it('queues a committed event that waits for the next heartbeat', () => {
    domain = testDomain();
    const event = domain.events.wake({
      agentName: 'main',
      text: 'deploy finished',
      metadata: { source: 'ci' },
      source: 'webhook'
    });
    expect(event.state).toBe('queued');
    expect(
      domain.database.sqlite
        .prepare('select state, text from system_events where id = ?')
        .get(event.eventId)
    ).toEqual({ state: 'queued', text: 'deploy finished' });
    expect(domain.agents.status('main').queuedEvents).toBe(1);
  });

  it('a heartbeat takes all queued events into one turn, and they follow it to done', async () => {
    domain = testDomain();
    const a = domain.events.wake({ agentName: 'main', text: 'first', source: 'webhook' });
    const b = domain.events.wake({
      agentName: 'main',
      text: 'second',
      metadata: { source: 'ci' },
      source: 'webhook'
    });
    const turnId = domain.events.beat('main');
    expect(turnId).toBeTruthy();
    const turn = await domain.turns.waitFor(turnId!, 5000);
    expect(turn.result).toBe('Noted 2 system events.');
    await settled(domain, a.eventId);
    expect(domain.events.get(b.eventId)).toMatchObject({ state: 'done', turnId });
    expect(domain.events.get(a.eventId).processedAt).toBeGreaterThan(0);
    const status = domain.agents.status('main');
    expect(status.queuedEvents).toBe(0);
    expect(status.nextHeartbeatAt! - status.lastHeartbeatAt!).toBe(30_000);
    expect(domain.events.beat('main')).toBeNull();
  });

  it('at start, events queued for an agent that is gone fail; the others are taken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-events-'));
    const before = testDomain({ agents: [{ name: 'main' }, { name: 'gone' }] }, dir);
    const orphan = before.events.wake({ agentName: 'gone', text: 'x', source: 'webhook' });
    const kept = before.events.wake({ agentName: 'main', text: 'y', source: 'webhook' });
    before.close(false);
    domain = testDomain({ agents: [{ name: 'main', heartbeatMs: 3_600_000 }] }, dir);
    domain.events.start();
    expect(domain.events.get(orphan.eventId).state).toBe('failed');
    // The beat at start takes the kept event to done (and nothing runs on after the test).
    await settled(domain, kept.eventId);
  });

  it('mode "now" asks for an immediate heartbeat', async () => {
    domain = testDomain({ agents: [{ name: 'main', heartbeatMs: 3_600_000 }] });
    const event = domain.events.wake({
      agentName: 'main',
      text: 'urgent',
      source: 'webhook',
      mode: 'now'
    });
    await settled(domain, event.eventId);
    expect(domain.events.get(event.eventId).turnId).toBeTruthy();
  });

  it('heartbeats run on the configured interval', async () => {
    domain = testDomain({ agents: [{ name: 'fast', heartbeatMs: 1000 }] });
    domain.events.start();
    const event = domain.events.wake({ agentName: 'fast', text: 'tick', source: 'webhook' });
    await settled(domain, event.eventId);
    expect(domain.events.list({ agentName: 'fast', state: 'done' }, 10).events).toHaveLength(1);
  });
});
