import type { GatewayDeps } from '../gateway.deps';
import type { RouteSet } from '../routes';

export function rpcRoutes(_deps: GatewayDeps): RouteSet {
  return { exact: [], prefix: [] };
}
