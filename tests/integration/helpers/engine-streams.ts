/** The real engine for tests: a labelled image from the busybox base, labelled containers. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ENGINE_SOCKET = '/var/run/docker.sock';
const docker = (...args: string[]) =>
  execFileSync('docker', args, { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();

/** Builds `berth-test/streams-<label>` FROM the busybox base, labelled `berth.test=<label>`. */
export function buildTestImage(label: string): string {
  const tag = `berth-test/streams-${label}:latest`;
  execFileSync('docker', ['build', '-q', '-t', tag, '-'], {
    input: `FROM berth-test/busybox:latest\nLABEL berth.test=${label}\nCMD ["sh"]\n`,
    env: { ...process.env, DOCKER_BUILDKIT: '0' },
    stdio: ['pipe', 'ignore', 'pipe']
  });
  return tag;
}

/** Starts a detached container running `script` under sh; returns its id. */
export function runContainer(image: string, label: string, script: string): string {
  return docker('run', '-d', '--label', `berth.test=${label}`, image, 'sh', '-c', script);
}

export function stopContainer(id: string, seconds = 0): void {
  docker('stop', '-t', String(seconds), id);
}

export function waitExit(id: string): void {
  docker('wait', id);
}

/** Removes every container with the label, then the image. */
export function removeLabelled(label: string, image: string): void {
  const ids = docker('ps', '-aq', '--filter', `label=berth.test=${label}`)
    .split('\n')
    .filter(Boolean);
  if (ids.length) docker('rm', '-f', ...ids);
  docker('rmi', '-f', image);
}

export interface EngineProxy {
  /** A DOCKER_HOST value for Berth. */
  host: string;
  /** Request lines (`GET /v1.41/…`) of the connections open now. */
  open(): string[];
  /** Cuts every connection, as an engine going away does. */
  dropAll(): void;
  close(): Promise<void>;
}

/**
 * A pass-through unix socket in front of the engine: what Berth sends reaches the real engine
 * unchanged; the test sees which requests hold a connection open, and can cut them.
 */
export async function engineProxy(): Promise<EngineProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-engine-'));
  const path = join(dir, 'engine.sock');
  const conns = new Map<Socket, string>();
  const server = createServer((client) => {
    const engine = connect(ENGINE_SOCKET);
    conns.set(client, '');
    client.on('data', (chunk: Buffer) => {
      const request = /^(GET|POST|PUT|DELETE|HEAD) (\S+) HTTP/m.exec(chunk.toString('latin1'));
      if (request) conns.set(client, `${request[1]} ${request[2]}`);
    });
    client.pipe(engine).pipe(client);
    const end = () => {
      conns.delete(client);
      client.destroy();
      engine.destroy();
    };
    client.on('close', end).on('error', end);
    engine.on('close', end).on('error', end);
  });
  await new Promise<void>((done) => server.listen(path, done));
  return {
    host: `unix://${path}`,
    open: () => [...conns.values()],
    dropAll: () => {
      for (const client of conns.keys()) client.destroy();
    },
    close: () =>
      new Promise((done) => {
        for (const client of conns.keys()) client.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          done();
        });
      })
  };
}
