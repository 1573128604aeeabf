import { createApp, type BerthApp } from './app';
import { findApp, publishApp } from './runtime';

let starting: Promise<BerthApp> | undefined;

/** Builds the app once per process and publishes it for the server entry. */
export function startApp(): Promise<BerthApp> {
  const existing = findApp();
  if (existing) return Promise.resolve(existing);
  starting ??= createApp({ migrationsDir: process.env.BERTH_MIGRATIONS_DIR }).then((app) => {
    publishApp(app);
    return app;
  });
  return starting;
}
