import type { Plugin, ViteDevServer } from 'vite';
import type { BerthApp } from './app';

/**
 * `vite dev` only: puts the same front (probes, gateway) ahead of SvelteKit's middleware and
 * attaches socket.io and /rpc/ws to Vite's HTTP server, so dev behaves like `node server.js`.
 */
export function berthDevServer(): Plugin {
  return {
    name: 'berth-dev-server',
    apply: 'serve',
    configureServer(server: ViteDevServer) {
      let ready: Promise<BerthApp> | undefined;
      const app = () => {
        ready ??= server
          .ssrLoadModule('/src/lib/server/start.ts')
          .then((mod) => (mod as typeof import('./start')).startApp())
          .then((started) => {
            if (server.httpServer && 'listen' in server.httpServer)
              started.attach(server.httpServer as import('node:http').Server, {
                ownsUpgrades: false
              });
            return started;
          });
        return ready;
      };
      server.middlewares.use((req, res, next) => {
        app().then(
          (started) => {
            if (!started.front(req, res)) next();
          },
          (err: unknown) => next(err)
        );
      });
    }
  };
}
