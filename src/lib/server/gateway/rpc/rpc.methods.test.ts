import { describe, expect, it } from 'vitest';
import { RPC_METHODS } from '$lib/contracts/rpc-methods';
import { METHODS } from './rpc.methods';

describe('RPC method names', () => {
  it('the permission picker offers exactly the methods a token can be granted', () => {
    const grantable = [...METHODS.keys()].filter(
      (name) => name !== 'events.unsubscribe' && name !== 'auth'
    );
    expect([...RPC_METHODS].sort()).toEqual(grantable.sort());
  });
});
