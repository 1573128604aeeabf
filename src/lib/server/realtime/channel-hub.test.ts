import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AuditEntry } from '$lib/contracts/audit';
import type { User } from '$lib/contracts/users';
import { DomainBus } from '../domain/bus';
import { testDomain } from '../domain/testing';
import { ChannelHub, type ChannelKindDef, type Publish } from './channel-hub';
import { consoleChannels } from './channels';

/** An in-memory transport: fan-out groups per channel, and what each member received. */
function memoryTransport() {
  const groups = new Map<string, Set<string>>();
  const received = new Map<string, unknown[]>();
  const errors: unknown[] = [];
  return {
    groups,
    errors,
    received: (member: string) => received.get(member) ?? [],
    transport: {
      enter: (member: string, channel: string) => {
        groups.set(channel, (groups.get(channel) ?? new Set()).add(member));
      },
      exit: (member: string, channel: string) => {
        groups.get(channel)?.delete(member);
      },
      publish: (channel: string, event: string, args: unknown[]) => {
        for (const member of groups.get(channel) ?? [])
          received.set(member, [...(received.get(member) ?? []), [event, ...args]]);
      },
      send: (member: string, _channel: string, event: string, args: unknown[]) => {
        received.set(member, [...(received.get(member) ?? []), [event, ...args]]);
      },
      backfill: () => undefined,
      onError: (err: unknown) => errors.push(err)
    }
  };
}

/** A kind whose sources count their starts and stops and can be made to publish. */
/** The console's channels over a test domain, as the server wires them. */
function consoleHub(
  bus: DomainBus,
  domain: ReturnType<typeof testDomain>,
  t: ReturnType<typeof memoryTransport>
) {
  return new ChannelHub(
    consoleChannels({
      bus,
      engines: () => null,
      builds: domain.buildfiles.builds,
      skills: domain.skills,
      activity: domain.chat.activity,
      captures: domain.webhooks.captures
    }),
    t.transport
  );
}

function countingKind(role: 'viewer' | 'operator' | 'admin' = 'viewer') {
  const running = new Map<string, Publish>();
  const log: string[] = [];
  const kind: ChannelKindDef<string> = {
    role,
    params: z.string().regex(/^[a-z0-9]{1,12}$/),
    start(id, publish) {
      log.push(`start ${id}`);
      running.set(id, publish);
      return () => {
        log.push(`stop ${id}`);
        running.delete(id);
      };
    }
  };
  return { kind: kind as ChannelKindDef<unknown>, running, log };
}

const audit = (target: string): AuditEntry => ({
  id: 1,
  at: 0,
  actorId: null,
  actorEmail: null,
  action: 'test',
  target,
  detail: null,
  ip: null
});

describe('channel hub', () => {
  it('starts one source on the first join across members and stops it on the last leave', () => {
    const t = memoryTransport();
    const logs = countingKind();
    const hub = new ChannelHub({ 'container.logs': logs.kind }, t.transport);

    expect(hub.join('a', 'viewer', 'container.logs:c1')).toBeNull();
    expect(hub.join('b', 'admin', 'container.logs:c1')).toBeNull();
    expect(hub.join('b', 'admin', 'container.logs:c1')).toBeNull(); // twice: a no-op
    expect(logs.log).toEqual(['start c1']);
    logs.running.get('c1')!('audit.appended', audit('x'));
    expect(t.received('a')).toEqual([['audit.appended', audit('x')]]);
    expect(t.received('b')).toEqual([['audit.appended', audit('x')]]);

    hub.leave('a', 'container.logs:c1');
    expect(logs.log).toEqual(['start c1']);
    logs.running.get('c1')!('audit.appended', audit('y'));
    expect(t.received('a')).toHaveLength(1);
    expect(t.received('b')).toHaveLength(2);

    hub.leave('b', 'container.logs:c1');
    expect(logs.log).toEqual(['start c1', 'stop c1']);
    expect(hub.running).toBe(0);
    hub.leave('b', 'container.logs:c1'); // leaving again changes nothing
    expect(logs.log).toEqual(['start c1', 'stop c1']);

    expect(hub.join('a', 'viewer', 'container.logs:c1')).toBeNull();
    expect(logs.log).toEqual(['start c1', 'stop c1', 'start c1']);
  });

  it("gives the first member's join options to the source and greets later members alone", () => {
    const t = memoryTransport();
    const calls: unknown[] = [];
    const kind: ChannelKindDef<string> = {
      role: 'viewer',
      params: z.string(),
      start(id, publish, options) {
        calls.push(['start', id, options]);
        return {
          stop: () => calls.push(['stop', id]),
          welcome(options, send) {
            calls.push(['welcome', options]);
            send('audit.appended', audit(`hello ${options.since ?? 'new'}`));
          }
        };
      }
    };
    const hub = new ChannelHub({ k: kind }, t.transport);
    const since = '2026-01-01T00:00:00.000000000Z';
    expect(hub.join('a', 'viewer', 'k:x', { since, seen: 1 })).toBeNull();
    expect(hub.join('b', 'viewer', 'k:x', { tail: 5 })).toBeNull();
    expect(calls).toEqual([
      ['start', 'x', { since, seen: 1 }],
      ['welcome', { tail: 5 }]
    ]);
    expect(t.received('a')).toEqual([]);
    expect(t.received('b')).toEqual([['audit.appended', audit('hello new')]]);
    hub.leaveAll('a');
    hub.leaveAll('b');
    expect(calls.at(-1)).toEqual(['stop', 'x']);
  });

  it('runs one source per parameter, and a disconnect leaves every channel of its member', () => {
    const t = memoryTransport();
    const logs = countingKind();
    const hub = new ChannelHub({ 'container.logs': logs.kind }, t.transport);
    hub.join('a', 'viewer', 'container.logs:c1');
    hub.join('a', 'viewer', 'container.logs:c2');
    hub.join('b', 'viewer', 'container.logs:c2');
    expect(logs.log).toEqual(['start c1', 'start c2']);
    expect(hub.running).toBe(2);

    hub.leaveAll('a');
    expect(logs.log).toEqual(['start c1', 'start c2', 'stop c1']);
    expect(t.groups.get('container.logs:c2')).toEqual(new Set(['b']));
    hub.leaveAll('b');
    expect(logs.log).toEqual(['start c1', 'start c2', 'stop c1', 'stop c2']);
    expect(hub.running).toBe(0);
  });

  it('refuses by role, kind and parameter with a typed reason, and starts nothing', () => {
    const t = memoryTransport();
    const logs = countingKind('operator');
    const plain = countingKind('viewer');
    const hub = new ChannelHub(
      { 'build.output': logs.kind, plain: { ...plain.kind, params: z.undefined() } },
      t.transport
    );
    expect(hub.join('v', 'viewer', 'build.output:b1')).toEqual({
      code: 'forbidden',
      message: 'the build.output:b1 room needs the operator role'
    });
    expect(hub.join('v', 'admin', 'nothing')).toEqual({ code: 'unknown', message: 'unknown room' });
    expect(hub.join('v', 'admin', 'toString')?.code).toBe('unknown');
    expect(hub.join('v', 'admin', 'build.output:../../etc')?.code).toBe('invalid');
    expect(hub.join('v', 'admin', 'build.output')?.code).toBe('invalid');
    expect(hub.join('v', 'admin', 'plain:x')?.code).toBe('invalid');
    expect(hub.join('v', 'admin', `build.output:${'a'.repeat(300)}`)?.code).toBe('invalid');
    expect(logs.log).toEqual([]);
    expect(hub.running).toBe(0);
    expect(t.groups.size).toBe(0);
    expect(hub.join('v', 'viewer', 'plain')).toBeNull();
  });

  it('a member whose role drops leaves the channels it may no longer join', () => {
    const t = memoryTransport();
    const secret = countingKind('admin');
    const open = countingKind('viewer');
    const hub = new ChannelHub({ secret: secret.kind, open: open.kind }, t.transport);
    hub.join('a', 'admin', 'secret:s');
    hub.join('a', 'admin', 'open:o');
    hub.join('b', 'admin', 'secret:s');

    hub.restrict('a', 'viewer');
    expect(t.groups.get('secret:s')).toEqual(new Set(['b']));
    expect(secret.log).toEqual(['start s']);
    hub.restrict('b', 'operator');
    expect(secret.log).toEqual(['start s', 'stop s']);
    expect(open.log).toEqual(['start o']);
    expect(t.groups.get('open:o')).toEqual(new Set(['a']));
  });

  it('a source that fails to start refuses the join and is tried again on the next', () => {
    const t = memoryTransport();
    let fail = true;
    const hub = new ChannelHub(
      {
        flaky: {
          role: 'viewer',
          params: z.string(),
          start: () => {
            if (fail) throw new Error('no such container');
            return () => undefined;
          }
        }
      },
      t.transport
    );
    expect(hub.join('a', 'viewer', 'flaky:x')).toEqual({
      code: 'unavailable',
      message: 'flaky:x cannot start: no such container'
    });
    expect(hub.running).toBe(0);
    expect(t.groups.get('flaky:x')?.size ?? 0).toBe(0);
    fail = false;
    expect(hub.join('a', 'viewer', 'flaky:x')).toBeNull();
    expect(hub.running).toBe(1);
  });

  it('drops what a source publishes after its stop, and reports a stop that throws', () => {
    const t = memoryTransport();
    let late: Publish | undefined;
    const hub = new ChannelHub(
      {
        draining: {
          role: 'viewer',
          params: z.undefined(),
          start: (_, publish) => {
            late = publish;
            publish('audit.appended', audit('first'));
            return () => {
              throw new Error('stream already closed');
            };
          }
        }
      },
      t.transport
    );
    hub.join('a', 'viewer', 'draining');
    expect(t.received('a')).toEqual([['audit.appended', audit('first')]]);
    hub.join('b', 'viewer', 'draining');
    hub.leave('a', 'draining');
    hub.leave('b', 'draining');
    expect(t.errors).toEqual([new Error('stream already closed')]);
    expect(hub.running).toBe(0);
    t.groups.set('draining', new Set(['a']));
    late!('audit.appended', audit('late'));
    expect(t.received('a')).toHaveLength(1);
  });

  it('caps the channels one member can hold', () => {
    const t = memoryTransport();
    const logs = countingKind();
    const hub = new ChannelHub({ logs: logs.kind }, t.transport, 2);
    expect(hub.join('a', 'viewer', 'logs:1')).toBeNull();
    expect(hub.join('a', 'viewer', 'logs:2')).toBeNull();
    expect(hub.join('a', 'viewer', 'logs:3')).toEqual({
      code: 'limit',
      message: 'a connection may join at most 2 channels'
    });
    expect(hub.join('a', 'viewer', 'logs:2')).toBeNull();
    expect(hub.join('b', 'viewer', 'logs:3')).toBeNull();
    hub.leave('a', 'logs:1');
    expect(hub.join('a', 'viewer', 'logs:3')).toBeNull();
  });

  it('close stops every source', () => {
    const t = memoryTransport();
    const logs = countingKind();
    const hub = new ChannelHub({ logs: logs.kind }, t.transport);
    hub.join('a', 'viewer', 'logs:1');
    hub.join('b', 'viewer', 'logs:2');
    hub.close();
    expect(logs.log).toEqual(['start 1', 'start 2', 'stop 1', 'stop 2']);
    expect(hub.running).toBe(0);
  });
});

describe('console channels', () => {
  it('forward their bus events only while someone has joined', () => {
    const bus = new DomainBus();
    const t = memoryTransport();
    const domain = testDomain();
    const hub = consoleHub(bus, domain, t);
    expect(hub.join('v', 'viewer', 'users')?.code).toBe('forbidden');
    expect(hub.join('v', 'viewer', 'agents')).toBeNull();
    expect(hub.join('a', 'admin', 'users')).toBeNull();
    const user = { id: 'u1', role: 'viewer' } as User;
    bus.emit('user.changed', user);
    bus.emit('audit.appended', audit('not joined'));
    expect(t.received('a')).toEqual([['user.changed', user]]);
    expect(t.received('v')).toEqual([]);

    hub.leave('a', 'users');
    t.groups.set('users', new Set(['a'])); // even a stale group hears nothing: the source stopped
    bus.emit('user.changed', user);
    expect(t.received('a')).toHaveLength(1);
    domain.close();
  });
});

describe('chat channels', () => {
  it('send a session only its own messages, deltas and turns, and the timeline every turn', () => {
    const bus = new DomainBus();
    const t = memoryTransport();
    const domain = testDomain();
    const hub = consoleHub(bus, domain, t);
    const mine = '11111111-1111-4111-8111-111111111111';
    const other = '22222222-2222-4222-8222-222222222222';
    expect(hub.join('v', 'viewer', `session:${mine}`)).toBeNull();
    expect(hub.join('v', 'viewer', 'session:not-an-id')?.code).toBe('invalid');
    expect(hub.join('w', 'viewer', 'activity')).toBeNull();
    const note = (sessionId: string) => ({
      sessionId,
      agentName: 'main',
      messageId: `m-${sessionId}`,
      turnId: 't1',
      role: 'user',
      content: 'hi',
      userId: 'u-ada'
    });
    bus.emit('message.created', note(other));
    bus.emit('message.delta', { turnId: 't2', sessionId: other, agentName: 'main', text: 'x' });
    bus.emit('message.created', note(mine));
    bus.emit('message.delta', { turnId: 't1', sessionId: mine, agentName: 'main', text: 'he' });
    const turn = {
      turnId: 't1',
      sessionId: mine,
      agentName: 'main',
      state: 'completed' as const,
      source: 'console',
      queuedAt: 1,
      startedAt: 2,
      finishedAt: 3,
      result: 'hello',
      error: null,
      usage: { prompt: 1, completion: 1 }
    };
    bus.emit('turn.changed', turn);
    bus.emit('turn.changed', { ...turn, turnId: 't2', sessionId: other });
    const channel = `session:${mine}`;
    expect(t.received('v')).toEqual([
      [
        'chat.message',
        {
          channel,
          // Who sent it travels with it: the chat names the sender without a reload.
          message: {
            messageId: `m-${mine}`,
            turnId: 't1',
            role: 'user',
            content: 'hi',
            userId: 'u-ada'
          }
        }
      ],
      ['chat.delta', { channel, turnId: 't1', text: 'he' }],
      ['chat.turn', { channel, turn }]
    ]);
    // The timeline row is small: the reply itself stays out of it.
    const rows = (t.received('w') as [string, { item: unknown }][]).map(([, p]) => p.item);
    expect(rows).toEqual([
      expect.objectContaining({ kind: 'turn', id: 't1', state: 'completed', source: 'console' }),
      expect.objectContaining({ kind: 'turn', id: 't2' })
    ]);
    expect(JSON.stringify(rows)).not.toContain('hello');
    hub.close();
    domain.close();
  });
});

describe('the webhook capture channel', () => {
  it("admits the capture's opener only, sends the delivery as it arrives, then the end", () => {
    const t = memoryTransport();
    const domain = testDomain();
    const captures = domain.webhooks.captures;
    const hub = consoleHub(new DomainBus(), domain, t);
    const ada = { id: 'u1', email: 'ada@example.com', ip: null, role: 'operator' as const };
    const { id, token } = captures.open(ada);
    const channel = `webhook.capture:${id}`;
    expect(hub.join('v', 'viewer', channel, {}, 'u1')?.code).toBe('forbidden');
    expect(hub.join('b', 'operator', channel, {}, 'u2')?.code).toBe('forbidden');
    expect(hub.join('a', 'operator', 'webhook.capture:unknownunknown00', {}, 'u1')?.code).toBe(
      'forbidden'
    );
    expect(hub.join('a', 'operator', channel, {}, 'u1')).toBeNull();
    expect(t.received('a')).toEqual([]);
    captures.receive(id, token, { 'x-a': '1' }, { n: 1 });
    // A second tab of the opener joins after the delivery: it gets it at once.
    expect(hub.join('a2', 'operator', channel, {}, 'u1')).toBeNull();
    captures.close(ada, id);
    const delivery = {
      receivedAt: expect.any(Number) as number,
      headers: { 'x-a': '1' },
      body: { n: 1 }
    };
    const expected = [
      ['webhook.captured', { channel, delivery }],
      ['webhook.capture.ended', { channel, reason: 'closed' }]
    ];
    expect(t.received('a')).toEqual(expected);
    expect(t.received('a2')).toEqual(expected);
    hub.close();
    domain.close();
  });
});
