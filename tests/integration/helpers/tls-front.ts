/**
 * A remote engine over TLS with client certificates for the suites: a TLS front on a loopback
 * port that verifies the client and passes the bytes to the local socket (a second dockerd is
 * heavy). Certificates made by openssl as the spec sets them up, 2048-bit keys to stay fast:
 * `ca` signs `server` and `client`; `other-ca` signs `stranger`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';

export interface TlsFront {
  port: number;
  /** The path of a PEM file made in set-up: `ca.pem`, `client.pem`, `client-key.pem` … */
  file(name: string): string;
  close(): Promise<void>;
}

export async function startTlsFront(): Promise<TlsFront> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-tls-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const makeCa = (name: string) =>
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
  const issue = (ca: string, name: string, ext: string) => {
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
  };

  makeCa('ca');
  makeCa('other-ca');
  issue(
    'ca',
    'server',
    'subjectAltName = IP:127.0.0.1, DNS:localhost\nextendedKeyUsage = serverAuth\n'
  );
  issue('ca', 'client', 'extendedKeyUsage = clientAuth\n');
  issue('other-ca', 'stranger', 'extendedKeyUsage = clientAuth\n');

  const sockets = new Set<Socket>();
  const front = createServer(
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
  const port = (front.address() as { port: number }).port;

  return {
    port,
    file,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((done) => front.close(done));
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
