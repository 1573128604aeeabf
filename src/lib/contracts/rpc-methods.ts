/**
 * Every JSON-RPC method Berth answers, the vocabulary of RPC token permissions. Shared by the
 * RPC adapter (dispatch, rpc.discover) and the console's permission picker.
 */
export const RPC_METHODS = [
  'agent.list',
  'agent.status',
  'agent.reload',
  'agent.sendMessage',
  'session.list',
  'session.get',
  'session.compact',
  'session.delete',
  'system.health',
  'system.info',
  'system.reload',
  'usage.stats',
  'event.get',
  'event.list',
  'turn.get',
  'turn.list',
  'rpc.discover',
  // /rpc/ws only: pushed notifications need their own permission.
  'events.subscribe'
] as const;
export type RpcMethod = (typeof RPC_METHODS)[number];

/** The permission that grants every method, present and future. */
export const ALL_METHODS = '*';

/** What a token's permission list may hold. */
export const RPC_PERMISSIONS: readonly string[] = [ALL_METHODS, ...RPC_METHODS];

export function isRpcMethod(name: string): name is RpcMethod {
  return (RPC_METHODS as readonly string[]).includes(name);
}
