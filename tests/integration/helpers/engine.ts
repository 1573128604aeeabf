/** The domain on the real engine, for the engine suites: actors, a run label, cleanup. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDomain } from '../../../src/lib/server/domain/testing';
import type { EngineActor } from '../../../src/lib/server/domain/engine/engine-access';
import { EngineRegistry } from '../../../src/lib/server/engine/engine.registry';

export const BASE_IMAGE = 'berth-test/busybox:latest';

export const actors = {
  admin: { id: 'u-admin', email: 'admin@example.com', ip: '127.0.0.1', role: 'admin' },
  operator: { id: 'u-op', email: 'op@example.com', ip: '127.0.0.1', role: 'operator' },
  viewer: { id: 'u-view', email: 'view@example.com', ip: '127.0.0.1', role: 'viewer' }
} satisfies Record<string, EngineActor>;

export function engineDomain(
  registry = new EngineRegistry({ socketPath: '/var/run/docker.sock' }),
  rawConfig: Record<string, unknown> = {}
) {
  const runId = `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const label = `berth.test=${runId}`;
  const domain = testDomain(rawConfig, undefined, registry);
  return { domain, runId, label, labels: { 'berth.test': runId } };
}

export function docker(...args: string[]): string {
  return execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Builds `tag` FROM the busybox base with the run label (docker build, as a user would). */
export function buildTestImage(tag: string, label: string, extra = ''): void {
  const dir = mkdtempSync(join(tmpdir(), 'berth-img-'));
  writeFileSync(
    join(dir, 'Dockerfile'),
    `FROM ${BASE_IMAGE}\nLABEL ${label.replace('=', '="')}"\n${extra}CMD ["sh", "-c", "echo hello-out; echo hello-err >&2; sleep 300"]\n`
  );
  try {
    docker('build', '-q', '-t', tag, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Removes only what carries the run's label: containers, networks, volumes, then images. */
export function removeLabelled(label: string): void {
  const ids = (...args: string[]) =>
    docker(...args)
      .split('\n')
      .filter(Boolean);
  const containers = ids('ps', '-aq', '--filter', `label=${label}`);
  if (containers.length) docker('rm', '-fv', ...containers);
  const networks = ids('network', 'ls', '-q', '--filter', `label=${label}`);
  if (networks.length) docker('network', 'rm', ...networks);
  const volumes = ids('volume', 'ls', '-q', '--filter', `label=${label}`);
  if (volumes.length) docker('volume', 'rm', '-f', ...volumes);
  removeImages([...new Set(ids('images', '-q', '--filter', `label=${label}`))]);
}

/**
 * Removes images that may be each other's parents (a child inherits its parent's labels): an
 * image with children is refused, so each round removes what it can until none is left.
 */
function removeImages(images: string[]): void {
  let left = images;
  while (left.length) {
    const refused = left.filter((id) => {
      try {
        docker('rmi', '-f', id);
        return false;
      } catch (err) {
        if (/dependent child images/.test(String(err))) return true;
        if (/No such image/.test(String(err))) return false;
        throw err;
      }
    });
    if (refused.length === left.length) throw new Error(`images ${left.join(' ')} stay in use`);
    left = refused;
  }
}
