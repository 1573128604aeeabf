import type { GatewayDeps } from '../gateway.deps';
import { RpcError, RPC_ERRORS, type RpcCall } from './jsonrpc';
import type { Caller } from './rpc.auth';
import { toRpcError, zodDetail } from './rpc.errors';
import { METHODS, type PushChannel, type RpcMethod } from './rpc.methods';

export type RpcDispatcher = (
  call: RpcCall,
  caller: Caller,
  channel: PushChannel | null
) => Promise<unknown>;

/**
 * One call, the same for HTTP and WebSocket: method lookup (-32601), permission (-32001, per
 * call, inside batches too), params (-32602, or -32600 for agent.sendMessage without
 * agentName, as the spec says), the handler, and the error mapping. Each call is counted.
 */
export function createDispatcher(
  deps: GatewayDeps,
  methods: ReadonlyMap<string, RpcMethod> = METHODS
): RpcDispatcher {
  const readiness = cachedFor(1000, () => deps.readiness());
  return async (call, caller, channel) => {
    const method = methods.get(call.method);
    let code = 0;
    try {
      if (!method || (method.wsOnly && !channel))
        throw new RpcError(
          RPC_ERRORS.METHOD_NOT_FOUND,
          method
            ? `${call.method} is only available on /rpc/ws`
            : `unknown method ${call.method.slice(0, 100)}`
        );
      if (!caller.may(call.method))
        throw new RpcError(RPC_ERRORS.PERMISSION, `not permitted to call ${call.method}`);
      if (
        call.method === 'agent.sendMessage' &&
        (call.params.agentName === undefined || call.params.agentName === null)
      )
        throw new RpcError(RPC_ERRORS.INVALID_REQUEST, 'agentName is required');
      const params = method.params.safeParse(call.params, { reportInput: true });
      if (!params.success) throw new RpcError(RPC_ERRORS.INVALID_PARAMS, zodDetail(params.error));
      return await method.handler(params.data, { deps, caller, channel, readiness });
    } catch (err) {
      const rpcErr = toRpcError(err);
      code = rpcErr.rpc.code;
      if (code === RPC_ERRORS.INTERNAL.code && rpcErr !== err)
        deps.logger.error({ err, method: call.method }, 'rpc call failed');
      throw rpcErr;
    } finally {
      deps.countRpcCall?.(method ? call.method : 'unknown', code, caller.name);
    }
  };
}

/** The last answer of `fn` for `ms`; concurrent callers share one call in flight. */
export function cachedFor<T>(ms: number, fn: () => Promise<T>): () => Promise<T> {
  let value: { at: number; promise: Promise<T> } | undefined;
  return () => {
    const now = performance.now();
    if (value && now - value.at < ms) return value.promise;
    const promise = fn();
    value = { at: now, promise };
    // A failure is not cached.
    promise.catch(() => {
      if (value?.promise === promise) value = undefined;
    });
    return promise;
  };
}
