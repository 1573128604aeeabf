import { describe, expect, it } from 'vitest';
import { RPC_CONTRACTS } from '$lib/contracts/rpc-methods';
import { consoleCaller, tokenCaller } from './rpc.auth';

const methods = Object.keys(RPC_CONTRACTS);

describe('RPC access from the contract table', () => {
  it('a console viewer may call the reading methods and the open ones, nothing else', () => {
    const viewer = consoleCaller({ email: 'v@example.com', role: 'viewer' });
    expect(methods.filter((m) => viewer.may(m)).sort()).toEqual(
      [
        'agent.list',
        'agent.status',
        'session.list',
        'session.get',
        'system.health',
        'system.info',
        'usage.stats',
        'event.get',
        'event.list',
        'turn.get',
        'turn.list',
        'skill.list',
        'events.subscribe',
        'events.unsubscribe',
        'rpc.discover'
      ].sort()
    );
    expect(viewer.may('no.such.method')).toBe(false);
    const operator = consoleCaller({ email: 'o@example.com', role: 'operator' });
    expect(methods.every((m) => operator.may(m))).toBe(true);
  });

  it('a token may call what it was granted, plus the methods open to everyone', () => {
    const token = tokenCaller({
      id: 'c1',
      name: 'ro',
      permissions: ['agent.list']
    } as Parameters<typeof tokenCaller>[0]);
    expect(methods.filter((m) => token.may(m)).sort()).toEqual(
      ['agent.list', 'events.unsubscribe', 'rpc.discover'].sort()
    );
  });
});
