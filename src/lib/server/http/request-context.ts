import type { ServerResponse } from 'node:http';

/**
 * The credential name an adapter authenticated a request with, so the front can count it in
 * /metrics and usage.stats when the response finishes. Never the secret itself.
 */
const names = new WeakMap<ServerResponse, string>();

export function setCredentialName(res: ServerResponse, name: string): void {
  names.set(res, name);
}

export function credentialName(res: ServerResponse): string | null {
  return names.get(res) ?? null;
}
