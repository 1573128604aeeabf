import { isLoopbackName } from '../loopback';
import { ConfigError } from './config.loader';
import type { BerthConfig } from './config.schema';

/** Loopback is the only place an unauthenticated interface may listen. */
export function assertSafeBind(
  config: BerthConfig,
  host: string,
  origin: string | undefined
): void {
  if (isLoopbackName(host) || host === '127.0.0.1') return;
  const problems: string[] = [];
  if (config.gateway.rpc.enabled && config.gateway.rpc.auth.type === 'none')
    problems.push('gateway.rpc.auth.type is "none" (unauthenticated RPC)');
  if (config.webhooks.enabled && !config.webhooks.token)
    problems.push('webhooks.enabled is true but webhooks.token is not set');
  if (!origin)
    problems.push('ORIGIN is not set (the URL people open, e.g. https://berth.example.com)');
  if (problems.length)
    throw new ConfigError(
      `refusing to listen on ${host}, which is not a loopback address: ${problems.join('; ')}. ` +
        'Fix these or bind HOST=127.0.0.1.',
      problems
    );
}
