import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineRegistry } from '../../src/lib/server/engine/engine.registry';
import { actors, engineDomain } from './helpers/engine';

/**
 * A remote engine over TLS with client certificates: a TLS front on a loopback port that
 * verifies the client and passes the bytes to the local socket (a second dockerd is heavy).
 * Certificates as the spec sets them up, with 2048-bit keys to keep the test fast.
 */
const dir = mkdtempSync(join(tmpdir(), 'berth-tls-'));
const file = (name: string) => join(dir, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

function makeCa(name: string) {
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '365',
    '-subj',
    `/CN=${name}`,
    '-keyout',
    file(`${name}.key`),
    '-out',
    file(`${name}.pem`)
  );
}

function issue(ca: string, name: string, ext: string) {
  writeFileSync(file(`${name}.ext`), ext);
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    `/CN=${name}`,
    '-keyout',
    file(`${name}-key.pem`),
    '-out',
    file(`${name}.csr`)
  );
  openssl(
    'x509',
    '-req',
    '-in',
    file(`${name}.csr`),
    '-CA',
    file(`${ca}.pem`),
    '-CAkey',
    file(`${ca}.key`),
    '-CAcreateserial',
    '-days',
    '365',
    '-extfile',
    file(`${name}.ext`),
    '-out',
    file(`${name}.pem`)
  );
}

let front: Server;
let port = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  makeCa('ca');
  makeCa('other-ca');
  issue(
    'ca',
    'server',
    'subjectAltName = IP:127.0.0.1, DNS:localhost\nextendedKeyUsage = serverAuth\n'
  );
  issue('ca', 'client', 'extendedKeyUsage = clientAuth\n');
  issue('other-ca', 'stranger', 'extendedKeyUsage = clientAuth\n');
  front = createServer(
    {
      key: readFileSync(file('server-key.pem')),
      cert: readFileSync(file('server.pem')),
      ca: readFileSync(file('ca.pem')),
      requestCert: true,
      rejectUnauthorized: true
    },
    (tls) => {
      const engine = connect('/var/run/docker.sock');
      for (const s of [tls, engine]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      tls.pipe(engine).pipe(tls);
    }
  );
  front.on('tlsClientError', () => undefined);
  await new Promise<void>((done) => front.listen(0, '127.0.0.1', done));
  port = (front.address() as { port: number }).port;
}, 60_000);

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((done) => front.close(done));
  rmSync(dir, { recursive: true, force: true });
});

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
});
