import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseConfig } from '../config/config.loader';
import { ConfigStore } from '../config/config.store';
import { openDatabase } from '../db/client';
import { EngineRegistry } from '../engine/engine.registry';
import { DomainBus } from './bus';
import { createServices } from './services';

/**
 * The domain on a real SQLite file in a temporary folder, for domain tests: the services the
 * app runs (services.ts), composed the same way.
 */
export function testDomain(
  rawConfig: Record<string, unknown> = {},
  dir = mkdtempSync(join(tmpdir(), 'berth-domain-')),
  /** Unit tests use no engine; the engine integration tests pass the real one. */
  engines = new EngineRegistry({ socketPath: '/nonexistent' })
) {
  const database = openDatabase(join(dir, 'berth.db'), resolve('drizzle'));
  const bus = new DomainBus(database.afterCommit);
  const config = new ConfigStore({ config: parseConfig(rawConfig, {}), file: null }, {});
  const services = createServices({
    db: database.db,
    config,
    bus,
    engines,
    engineKeysDir: join(dir, 'engine-keys'),
    workspacesDir: join(dir, 'workspaces')
  });
  return {
    ...services,
    dir,
    database,
    bus,
    close(removeDir = true) {
      services.events.stop();
      services.turns.stop();
      services.usage.stop();
      services.webhooks.deliveries.stop();
      services.webhooks.captures.stop();
      database.close();
      if (removeDir) rmSync(dir, { recursive: true, force: true });
    }
  };
}
