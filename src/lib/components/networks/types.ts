/** A network as the list answers it (the engine's casing). */
export interface NetworkItem {
  Id: string;
  Name: string;
  Driver: string;
  Scope: string;
  Created: string;
  Internal?: boolean;
  IPAM?: { Config?: { Subnet?: string; Gateway?: string }[] | null };
  Labels?: Record<string, string> | null;
}

/** The engine's own networks, which it never removes or prunes. */
export const BUILTIN_NETWORKS = new Set(['bridge', 'host', 'none']);
