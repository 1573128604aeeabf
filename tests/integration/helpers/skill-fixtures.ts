/** What the skill suites run against: an http endpoint on loopback, and the engine's view of runs. */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenCall {
  method: string;
  url: string;
  body: string;
  type: string | undefined;
}

export interface RecordingServer {
  port: number;
  seen: SeenCall[];
  close(): Promise<void>;
}

/**
 * An http skill's endpoint on 127.0.0.1: records every request; `/fail` answers 503, anything
 * else 200 with `{got: <the JSON body>, url}`.
 */
export async function startRecordingServer(): Promise<RecordingServer> {
  const seen: SeenCall[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        body,
        type: req.headers['content-type']
      });
      if (req.url === '/fail') {
        res.writeHead(503).end('down');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ got: JSON.parse(body || 'null') as unknown, url: req.url }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    }
  };
}

/** The ids of the containers (running or not) carrying `label` (`key=value` or `key`). */
export function containersLabelled(label: string): string {
  return execFileSync('docker', ['ps', '-aq', '--filter', `label=${label}`], {
    encoding: 'utf8'
  }).trim();
}

export interface ContainerEvent {
  action: string;
  attributes: Record<string, string>;
  /** When the engine says it happened, epoch ms. */
  at: number;
}

/** The engine's container events since `sinceMs` (epoch ms) for containers carrying `label`. */
export function containerEvents(label: string, sinceMs: number): ContainerEvent[] {
  const out = execFileSync(
    'docker',
    [
      'events',
      '--since',
      (sinceMs / 1000 - 1).toFixed(3),
      '--until',
      (Date.now() / 1000).toFixed(3),
      '--filter',
      'type=container',
      '--filter',
      `label=${label}`,
      '--format',
      '{{json .}}'
    ],
    { encoding: 'utf8' }
  );
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const e = JSON.parse(line) as {
        Action: string;
        Actor: { Attributes: Record<string, string> };
        timeNano: number;
      };
      return { action: e.Action, attributes: e.Actor.Attributes, at: e.timeNano / 1e6 };
    });
}
