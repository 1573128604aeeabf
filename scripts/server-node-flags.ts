import { readFileSync } from 'node:fs';

/**
 * The Node flags Berth's server runs with, from `scripts/server-node-flags` (which start.sh and
 * `npm start` read too), so tests and benches start the server the way users do. A young
 * generation of 8 MiB per semi-space keeps a busy log stream from growing RSS by ~100 MB of
 * garbage between scavenges (README: the Logs figures).
 */
export const serverNodeFlags: string[] = readFileSync(
  new URL('server-node-flags', import.meta.url),
  'utf8'
)
  .trim()
  .split(/\s+/);
