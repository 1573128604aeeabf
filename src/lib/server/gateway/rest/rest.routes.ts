import type { GatewayDeps } from '../gateway.deps';
import type { RouteSet } from '../routes';

export function restRoutes(_deps: GatewayDeps): RouteSet {
  return { exact: [], prefix: [] };
}
