/**
 * Stands in for `ssh2` inside the bundled docker-modem (vite.config.ts): Berth reaches engines
 * over a Unix socket or TCP, never `ssh://`, and ssh2 with its crypto costs about 2.4 MiB of
 * RSS for as long as the server runs.
 */
export class Client {
  constructor() {
    throw new Error('ssh:// engines are not supported: use unix:// or tcp://');
  }
}
