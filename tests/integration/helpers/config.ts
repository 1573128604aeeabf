/** berth.yaml for the suites, built from the parts each one sets. */
import { stringify } from 'yaml';

/** The RPC token most suites call with. */
export const OPS = 'ops-token-0123456789abcdef';

export interface RpcTokenEntry {
  name: string;
  token: string;
  permissions?: string[];
}

/** An RPC token entry; every permission unless narrowed. */
export const rpcToken = (
  name: string,
  token: string,
  permissions: string[] = ['*']
): RpcTokenEntry => ({ name, token, permissions });

export interface ConfigParts {
  /** gateway.rpc.auth.tokens */
  rpcTokens?: RpcTokenEntry[];
  /** gateway.rest.apiKeys */
  apiKeys?: { name: string; key: string; role: string }[];
  /** Turns webhooks on with this token. */
  webhookToken?: string;
  agents?: Record<string, unknown>[];
  /** providers: by name */
  providers?: Record<string, Record<string, unknown>>;
  /** skills: definitions, as in berth.yaml */
  skills?: Record<string, unknown>[];
  /** Further keys of the gateway section (rpc.ws, rest.waitMs, turns, authThrottle …). */
  gateway?: { rpc?: object; rest?: object; [key: string]: unknown };
  /** Further keys of the webhooks section (rateLimit, mappings …). */
  webhooks?: Record<string, unknown>;
}

export function berthConfig(parts: ConfigParts): string {
  const gateway: Record<string, unknown> = { ...parts.gateway };
  if (parts.rpcTokens) gateway.rpc = { ...parts.gateway?.rpc, auth: { tokens: parts.rpcTokens } };
  if (parts.apiKeys) gateway.rest = { ...parts.gateway?.rest, apiKeys: parts.apiKeys };
  const config: Record<string, unknown> = {};
  if (Object.keys(gateway).length) config.gateway = gateway;
  if (parts.webhookToken !== undefined)
    config.webhooks = { enabled: true, token: parts.webhookToken, ...parts.webhooks };
  if (parts.agents) config.agents = parts.agents;
  if (parts.providers) config.providers = parts.providers;
  if (parts.skills) config.skills = parts.skills;
  return stringify(config);
}
