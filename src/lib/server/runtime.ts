import type { BerthApp } from './app';

/**
 * SvelteKit bundles the server code; the production entry (server.js) is a separate module.
 * The app built in hooks `init` is published here, under a global symbol, so the entry can
 * attach realtime and the fast routes to the same instance the pages use.
 */
const KEY = Symbol.for('berth.app');
type Holder = { [KEY]?: BerthApp };

export function publishApp(app: BerthApp): void {
  (globalThis as Holder)[KEY] = app;
}

export function getApp(): BerthApp {
  const app = (globalThis as Holder)[KEY];
  if (!app) throw new Error('Berth has not started');
  return app;
}

export function findApp(): BerthApp | undefined {
  return (globalThis as Holder)[KEY];
}
