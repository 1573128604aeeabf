import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serverNodeFlags } from '../../../scripts/server-node-flags.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /** berth.yaml contents, written into the data dir and named by BERTH_CONFIG. */
  config?: string;
  dataDir?: string;
  /** Wait for /healthz (default) or only for the process to exit. */
  expectExit?: boolean;
}

export interface Berth {
  url: string;
  port: number;
  dataDir: string;
  proc: ChildProcess;
  output(): string;
  /** Sends a signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

export const ADMIN = { email: 'admin@example.com', password: 'correct-horse-battery' };

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts the built server (`node server.js`) as its own process on a free port. */
export async function startBerth(options: StartOptions = {}): Promise<Berth> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'berth-it-'));
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOST: '127.0.0.1',
    PORT: String(port),
    BERTH_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ...options.env
  };
  if (options.config !== undefined) {
    const file = join(dataDir, 'berth.yaml');
    writeFileSync(file, options.config);
    env.BERTH_CONFIG = file;
  }
  const proc = spawn(process.execPath, [...serverNodeFlags, 'server.js'], {
    cwd: ROOT,
    env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe']
  });
  let output = '';
  proc.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((done) => proc.once('exit', (code) => done(code)));
  const url = `http://127.0.0.1:${port}`;
  const berth: Berth = {
    url,
    port,
    dataDir,
    proc,
    exited,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      const code = await exited;
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    }
  };
  if (options.expectExit) return berth;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`berth exited with ${proc.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return berth;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  proc.kill('SIGKILL');
  throw new Error(`berth did not answer /healthz within 20 s:\n${output}`);
}

/** Signs in through the login form, as a browser would; returns the session cookie pair. */
export async function login(
  berth: Berth,
  email = ADMIN.email,
  password = ADMIN.password
): Promise<string> {
  const res = await postForm(berth, '/login', { email, password });
  const cookie = sessionCookie(res);
  if (res.status !== 303 || !cookie)
    throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return cookie;
}

export function postForm(
  berth: Berth,
  path: string,
  fields: Record<string, string>,
  cookie?: string
) {
  return fetch(`${berth.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      // As a browser sends it: SvelteKit answers form actions with JSON to anything else.
      accept: 'text/html',
      origin: berth.url,
      ...(cookie ? { cookie } : {})
    },
    body: new URLSearchParams(fields).toString()
  });
}

export function sessionCookie(res: Response): string | undefined {
  for (const header of res.headers.getSetCookie()) {
    const pair = header.split(';')[0]!;
    if (pair.startsWith('berth_session=') && pair !== 'berth_session=') return pair;
  }
  return undefined;
}

/** Calls a tRPC procedure the way the console does (batch link off, one call). */
export async function trpc(
  berth: Berth,
  cookie: string | undefined,
  path: string,
  input?: unknown,
  kind: 'query' | 'mutation' = 'mutation'
): Promise<{
  status: number;
  body: { result?: { data: unknown }; error?: { message: string; data: { code: string } } };
}> {
  const headers: Record<string, string> = { origin: berth.url, ...(cookie ? { cookie } : {}) };
  const res =
    kind === 'query'
      ? await fetch(
          `${berth.url}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input ?? {}))}`,
          { headers }
        )
      : await fetch(`${berth.url}/api/trpc/${path}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(input ?? {})
        });
  return { status: res.status, body: (await res.json()) as never };
}
