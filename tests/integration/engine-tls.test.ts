import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { text } from 'node:stream/consumers';
import { EngineRegistry } from '../../src/lib/server/engine/engine.registry';
import { registryEngineStreams } from '../../src/lib/server/engine/registry-streams';
import { actors, BASE_IMAGE, engineDomain } from './helpers/engine';
import { startTlsFront, type TlsFront } from './helpers/tls-front';

/** A remote engine over TLS with client certificates, through the TLS front helper. */
let front: TlsFront;
let port = 0;
const file = (name: string) => front.file(name);

beforeAll(async () => {
  front = await startTlsFront();
  port = front.port;
}, 60_000);

afterAll(() => front.close());

const remote = (name: string, tls: { ca?: string; cert: string; key: string }) => ({
  name,
  host: '127.0.0.1',
  port,
  tls
});

describe('a remote engine over TLS with client certificates', () => {
  it('is health-checked with its version and serves the same operations', async () => {
    const registry = new EngineRegistry({ socketPath: '/var/run/docker.sock' }, [
      remote('remote', {
        ca: file('ca.pem'),
        cert: file('client.pem'),
        key: file('client-key.pem')
      })
    ]);
    const { domain } = engineDomain(registry);
    try {
      const engines = await domain.engine.system.engines(actors.viewer);
      const local = engines.find((e) => e.name === 'local');
      expect(engines.find((e) => e.name === 'remote')).toMatchObject({
        status: 'ok',
        tls: true,
        address: `127.0.0.1:${port}`,
        apiVersion: local?.apiVersion
      });
      const viaTls = await domain.engine.containers.list(actors.viewer, {
        engine: 'remote',
        all: true,
        filters: {}
      });
      const viaSocket = await domain.engine.containers.list(actors.viewer, {
        engine: 'local',
        all: true,
        filters: {}
      });
      expect(viaTls.map((c) => c.Id).sort()).toEqual(viaSocket.map((c) => c.Id).sort());
      // Key material and its path never come back.
      const shown = JSON.stringify(engines);
      expect(shown).not.toContain('PRIVATE KEY');
      expect(shown).not.toContain('client-key.pem');
      await expect(domain.engine.system.info(actors.viewer, { engine: 'nowhere' })).rejects.toThrow(
        'no engine named nowhere'
      );
    } finally {
      domain.close();
    }
  });

  it('refuses an engine whose certificate another CA signed, and says why', async () => {
    const registry = new EngineRegistry({ socketPath: '/var/run/docker.sock' }, [
      remote('wrong-ca', {
        ca: file('other-ca.pem'),
        cert: file('client.pem'),
        key: file('client-key.pem')
      })
    ]);
    const [, summary] = await registry.health();
    expect(summary).toMatchObject({
      name: 'wrong-ca',
      status: 'unavailable',
      detail: "the engine's TLS certificate is not signed by the configured CA"
    });
    await expect(
      registry.get('wrong-ca').call({ method: 'GET', path: '/info', what: 'engine info' })
    ).rejects.toThrow("the engine's TLS certificate is not signed by the configured CA");
  });

  it('is refused by the engine with a client certificate it does not trust', async () => {
    const registry = new EngineRegistry({ socketPath: '/var/run/docker.sock' }, [
      remote('stranger', {
        ca: file('ca.pem'),
        cert: file('stranger.pem'),
        key: file('stranger-key.pem')
      })
    ]);
    const [, summary] = await registry.health();
    expect(summary).toMatchObject({ status: 'unavailable' });
    expect(summary?.detail).toMatch(/client certificate/);
  });

  it('reports unreadable certificate files without reading or naming the key', async () => {
    const registry = new EngineRegistry({ socketPath: '/var/run/docker.sock' }, [
      remote('missing', {
        ca: file('ca.pem'),
        cert: file('client.pem'),
        key: file('absent-key.pem')
      })
    ]);
    const [, summary] = await registry.health();
    expect(summary).toMatchObject({ status: 'error' });
    expect(summary?.detail).toContain('cannot read its TLS files (ENOENT)');
    expect(summary?.detail).not.toContain('absent-key.pem');
  });

  it("streams a container's logs for the console channels over TLS, and refuses a wrong CA", async () => {
    const label = `tls-streams-${process.pid}`;
    const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim();
    const id = docker(
      'run',
      '-d',
      '--label',
      `berth.test=${label}`,
      BASE_IMAGE,
      'sh',
      '-c',
      'echo over; echo tls'
    );
    const registry = new EngineRegistry({ socketPath: '/var/run/docker.sock' }, [
      remote('remote', {
        ca: file('ca.pem'),
        cert: file('client.pem'),
        key: file('client-key.pem')
      }),
      remote('wrong-ca', {
        ca: file('other-ca.pem'),
        cert: file('client.pem'),
        key: file('client-key.pem')
      })
    ]);
    const streams = registryEngineStreams(registry);
    try {
      docker('wait', id);
      const logs = await streams('remote')!.openLogs(id, { follow: false, timestamps: false });
      // Multiplexed frames: an 8-byte header before each line.
      expect((await text(logs)).replace(/[^\n -~]/g, '')).toBe('over\ntls\n');
      expect(streams('nowhere')).toBeNull();
      await expect(
        streams('wrong-ca')!.openLogs(id, { follow: false, timestamps: false })
      ).rejects.toThrow("the engine's TLS certificate is not signed by the configured CA");
    } finally {
      docker('rm', '-f', id);
    }
  });
});
