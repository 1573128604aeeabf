import type { Duplex } from 'node:stream';
import type { EngineClient } from './engine.client';
import { checkId } from './engine.ids';

/**
 * A one-shot container as `docker run --rm -i` makes it (a container skill's run): created
 * with stdin open once, attached before it starts, waited for, removed by the caller.
 */
export interface OneShotCreate {
  image: string;
  cmd?: string[];
  env: string[];
  labels: Record<string, string>;
  memoryBytes: number;
  nanoCpus: number;
  network: boolean;
}

export async function createOneShot(e: EngineClient, input: OneShotCreate): Promise<string> {
  const { body } = await e.call<{ Id: string }>({
    method: 'POST',
    path: '/containers/create',
    what: `a container from ${input.image}`,
    body: {
      Image: input.image,
      Cmd: input.cmd,
      Env: input.env,
      Labels: input.labels,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      OpenStdin: true,
      StdinOnce: true,
      Tty: false,
      HostConfig: {
        Memory: input.memoryBytes,
        // No swap beyond the memory limit: the limit means what it says.
        MemorySwap: input.memoryBytes,
        NanoCpus: input.nanoCpus,
        NetworkMode: input.network ? 'bridge' : 'none',
        PidsLimit: 512,
        SecurityOpt: ['no-new-privileges'],
        Privileged: false
      }
    }
  });
  return body.Id;
}

/** The container's stdin, stdout and stderr on one hijacked connection (framed: no TTY). */
export async function attachOneShot(e: EngineClient, id: string): Promise<Duplex> {
  return e.hijack({
    method: 'POST',
    path: `/containers/${checkId('container', id)}/attach`,
    query: { stream: true, stdin: true, stdout: true, stderr: true },
    what: `container ${id.slice(0, 12)}`,
    // No body: an empty one (Content-Length 0) makes the modem send the request at once, and
    // nothing reaches the container's stdin before the params do.
    file: Buffer.alloc(0),
    headers: { 'Content-Type': 'text/plain' }
  });
}

/** Waits for the container's next exit (asked before it starts); its exit code. */
export async function waitOneShot(e: EngineClient, id: string, timeoutMs: number) {
  const { body } = await e.call<{ StatusCode: number }>({
    method: 'POST',
    path: `/containers/${checkId('container', id)}/wait`,
    query: { condition: 'next-exit' },
    what: `container ${id.slice(0, 12)}`,
    timeoutMs
  });
  return body.StatusCode;
}
