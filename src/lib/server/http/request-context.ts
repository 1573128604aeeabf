import type { ServerResponse } from 'node:http';

/**
 * The credential name an adapter authenticated a request with, so the front can count it in
 * /metrics and usage.stats when the response finishes. Never the secret itself. Kept as a
 * symbol-keyed property: a WeakMap entry per request showed as 5% of an RPC call's time.
 */
const CREDENTIAL = Symbol('berth.credential');
type Tagged = ServerResponse & { [CREDENTIAL]?: string };

export function setCredentialName(res: ServerResponse, name: string): void {
  (res as Tagged)[CREDENTIAL] = name;
}

export function credentialName(res: ServerResponse): string | null {
  return (res as Tagged)[CREDENTIAL] ?? null;
}
