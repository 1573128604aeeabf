import type { RouteSet } from '../http/fast-router';
import type { GatewayDeps } from './gateway.deps';
import { restRoutes } from './rest/rest.routes';
import { rpcRoutes } from './rpc/rpc.routes';
import { webhookRoutes } from './webhooks/webhook.routes';

/** The gateway's part of the one routing table: REST v1, /rpc and the webhook paths. */
export function gatewayRoutes(deps: GatewayDeps): RouteSet {
  const sets = [restRoutes(deps), rpcRoutes(deps), webhookRoutes(deps)];
  return { exact: sets.flatMap((s) => s.exact), prefix: sets.flatMap((s) => s.prefix) };
}
