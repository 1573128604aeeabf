/**
 * Production entry: one node:http server carrying Berth's front (probes, then the gateway),
 * the SvelteKit handler, socket.io and /rpc/ws. Run as `node server.js`. The SvelteKit build
 * creates the app in its `init` hook; this file only wires the server. It is JavaScript typed
 * in JSDoc (checked with the rest): an entry in TypeScript makes Node load its type stripper,
 * about 10 MiB of RSS for as long as the server runs.
 */
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 * @typedef {import('node:http').ServerResponse} ServerResponse
 * @typedef {(req: IncomingMessage, res: ServerResponse) => void} Handler
 * @typedef {{
 *   config: { current: { server: { host: string; port: number } } };
 *   logger: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
 *   front(req: IncomingMessage, res: ServerResponse): boolean;
 *   attach(server: ReturnType<typeof createServer>): void;
 *   closeRealtime(): Promise<void>;
 *   shutdown(): Promise<void>;
 * }} App
 */

const root = dirname(fileURLToPath(import.meta.url));
process.env.BERTH_MIGRATIONS_DIR ??= join(root, 'drizzle');
process.env.BODY_SIZE_LIMIT ??= '1M';
// Without ORIGIN, SvelteKit derives the origin from the (already checked) Host and this header.
if (!process.env.ORIGIN) process.env.PROTOCOL_HEADER = 'x-berth-proto';

/** @type {Handler} */
let handler;
try {
  // The rule does not see JSDoc casts, and the build's module has no types of its own.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
  const built = /** @type {{ handler: Handler }} */ (
    await import(join(root, 'build', 'handler.js'))
  );
  handler = built.handler;
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  if (message.includes('Cannot find module') && message.includes('handler.js'))
    console.error('berth: no build found; run `npm run build` first');
  else console.error(`berth: cannot start: ${message}`);
  process.exit(1);
}

const published = /** @type {Record<symbol, App | undefined>} */ (globalThis)[
  Symbol.for('berth.app')
];
if (!published) {
  console.error('berth: the app did not start (hooks init did not run)');
  process.exit(1);
}
/** @type {App} */
const app = published;

const server = createServer(
  // A slow client cannot hold a connection: headers within 10 s, the whole request within 60 s.
  {
    headersTimeout: 10_000,
    requestTimeout: 60_000,
    keepAliveTimeout: 5_000,
    connectionsCheckingInterval: 1_000
  },
  (req, res) => {
    if (!app.front(req, res)) handler(req, res);
  }
);
app.attach(server);

const { host, port } = app.config.current.server;
server.on('error', (/** @type {NodeJS.ErrnoException} */ err) => {
  console.error(
    err.code === 'EADDRINUSE'
      ? `berth: ${host}:${port} is already in use; set PORT to another port`
      : `berth: cannot listen on ${host}:${port}: ${err.message}`
  );
  process.exit(1);
});
server.listen(port, host, () => {
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  app.logger.info(
    { host, port: bound },
    `Berth listening on http://${host.includes(':') ? `[${host}]` : host}:${bound}`
  );
});

let stopping = false;
/** @param {string} signal */
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  app.logger.info({ signal }, 'stopping: no new connections, finishing requests in flight');
  const force = setTimeout(() => server.closeAllConnections(), 8_000).unref();
  setTimeout(() => process.exit(1), 10_000).unref();
  const closed = new Promise((resolve) => server.close(() => resolve(undefined)));
  server.closeIdleConnections();
  try {
    await app.closeRealtime();
    await closed;
    clearTimeout(force);
    await app.shutdown();
  } catch (err) {
    app.logger.error({ err }, 'shutdown step failed');
  }
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
