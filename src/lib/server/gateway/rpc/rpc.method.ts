import type { z } from 'zod';
import type { Readiness } from '$lib/contracts/health';
import type { GatewayDeps } from '../gateway.deps';
import type { Caller } from './rpc.auth';

/**
 * One JSON-RPC method's shape, apart from the table (rpc.methods.ts) so the OpenRPC document
 * and the dispatcher can name it without importing the table back.
 */

/** What a /rpc/ws connection offers to the methods that only make sense there. */
export interface PushChannel {
  subscribe(topics: string[], agentName?: string): string[];
  unsubscribe(topics?: string[]): string[];
}

export interface MethodContext {
  deps: GatewayDeps;
  caller: Caller;
  /** null over HTTP. */
  channel: PushChannel | null;
  /** Readiness, cached for about a second so a burst of system.health pings the engine once. */
  readiness: () => Promise<Readiness>;
}

export interface RpcMethod<S extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  description: string;
  params: S;
  result: R;
  /** Needs a /rpc/ws connection (push subscriptions). */
  wsOnly?: boolean;
  handler(params: z.output<S>, ctx: MethodContext): z.output<R> | Promise<z.output<R>>;
}
