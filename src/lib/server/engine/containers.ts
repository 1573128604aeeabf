import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { z } from 'zod';
import type { ContainerCreate, ContainerLogs, containerListSchema } from '$lib/contracts/engine';
import type { EngineClient } from './engine.client';
import { checkId } from './engine.ids';

/** Container operations of the spec, on one engine. Logs, stats and exec answer raw streams. */
export interface ContainerSummary {
  Id: string;
  Names: string[];
  Image: string;
  ImageID: string;
  Command: string;
  Created: number;
  State: string;
  Status: string;
  Ports: { IP?: string; PrivatePort: number; PublicPort?: number; Type: string }[];
  Labels: Record<string, string>;
}

const what = (id: string) => `container ${id}`;

export async function listContainers(
  e: EngineClient,
  input: Pick<z.output<typeof containerListSchema>, 'all' | 'filters'>
) {
  const filters = Object.fromEntries(Object.entries(input.filters).filter(([, v]) => v?.length));
  return e
    .call<ContainerSummary[]>({
      method: 'GET',
      path: '/containers/json',
      query: { all: input.all, filters: Object.keys(filters).length ? filters : undefined },
      what: 'the container list'
    })
    .then((r) => r.body);
}

/** The spec's create request, every field; the host-reaching options are the caller's check. */
export async function createContainer(e: EngineClient, input: ContainerCreate) {
  const bindings: Record<string, { HostPort: string; HostIp?: string }[]> = {};
  for (const b of input.portBindings)
    (bindings[b.port] ??= []).push({ HostPort: b.hostPort, ...(b.hostIp && { HostIp: b.hostIp }) });
  const exposed = [...input.exposedPorts, ...input.portBindings.map((b) => b.port)];
  return e
    .call<{ Id: string; Warnings: string[] | null }>({
      method: 'POST',
      path: '/containers/create',
      query: { name: input.name },
      what: input.name ? what(input.name) : `a container from ${input.image}`,
      body: {
        Image: input.image,
        Hostname: input.hostname,
        ExposedPorts: Object.fromEntries(exposed.map((p) => [p, {}])),
        Env: input.env,
        Cmd: input.cmd,
        Labels: input.labels,
        HostConfig: {
          PortBindings: bindings,
          Memory: input.memory,
          CpuShares: input.cpuShares,
          RestartPolicy: input.restartPolicy ? { Name: input.restartPolicy } : undefined,
          Privileged: input.privileged,
          Binds: input.binds.length ? input.binds : undefined,
          NetworkMode: input.networkMode,
          PidMode: input.pidMode,
          CapAdd: input.capAdd.length ? input.capAdd : undefined
        }
      }
    })
    .then((r) => ({ id: r.body.Id, warnings: r.body.Warnings ?? [] }));
}

type Action = 'start' | 'stop' | 'restart' | 'kill' | 'pause' | 'unpause';

/** A state change; `changed: false` when the engine says it was already so (304). */
export async function containerAction(
  e: EngineClient,
  id: string,
  action: Action,
  query?: { t?: number; signal?: string }
): Promise<{ changed: boolean }> {
  const { changed } = await e.call({
    method: 'POST',
    path: `/containers/${checkId('container', id)}/${action}`,
    query,
    what: what(id),
    // stop waits t seconds before killing: the answer comes after that.
    timeoutMs: ((query?.t ?? 10) + 30) * 1000
  });
  return { changed };
}

async function read<T>(e: EngineClient, id: string, leaf: string, query?: Record<string, unknown>) {
  return e
    .call<T>({
      method: 'GET',
      path: `/containers/${checkId('container', id)}/${leaf}`,
      query,
      what: what(id)
    })
    .then((r) => r.body);
}

export const inspectContainer = async (e: EngineClient, id: string) =>
  read<Record<string, unknown>>(e, id, 'json');
export const containerTop = async (e: EngineClient, id: string) =>
  read<{ Titles: string[]; Processes: string[][] }>(e, id, 'top');
export const containerChanges = async (e: EngineClient, id: string) =>
  read<{ Path: string; Kind: 0 | 1 | 2 }[] | null>(e, id, 'changes').then((c) => c ?? []);
/** One stats snapshot (the engine samples twice: about a second). */
export const containerStatsOnce = async (e: EngineClient, id: string) =>
  read<Record<string, unknown>>(e, id, 'stats', { stream: false });

/** Stats as the engine streams them: JSON lines, chunked at random. */
export async function containerStatsStream(e: EngineClient, id: string): Promise<IncomingMessage> {
  const path = `/containers/${checkId('container', id)}/stats`;
  return e.stream({ method: 'GET', path, query: { stream: true }, what: what(id) });
}

/** The raw log stream (multiplexed frames unless the container has a TTY); E2's demux reads it. */
export async function containerLogs(
  e: EngineClient,
  input: ContainerLogs
): Promise<IncomingMessage> {
  return e.stream({
    method: 'GET',
    path: `/containers/${checkId('container', input.id)}/logs`,
    query: {
      stdout: input.stdout,
      stderr: input.stderr,
      follow: input.follow,
      tail: input.tail,
      timestamps: input.timestamps,
      since: input.since
    },
    what: what(input.id)
  });
}

export async function createExec(
  e: EngineClient,
  id: string,
  cmd: string[],
  opts: { tty: boolean; stdin: boolean }
): Promise<string> {
  const { body } = await e.call<{ Id: string }>({
    method: 'POST',
    path: `/containers/${checkId('container', id)}/exec`,
    what: what(id),
    body: {
      AttachStdin: opts.stdin,
      AttachStdout: true,
      AttachStderr: true,
      Tty: opts.tty,
      Cmd: cmd
    }
  });
  return body.Id;
}

/** Starts an exec attached: a hijacked duplex (stdin in, output out; framed unless TTY). */
export async function startExec(e: EngineClient, execId: string, tty: boolean): Promise<Duplex> {
  return e.hijack({
    method: 'POST',
    path: `/exec/${checkId('exec', execId)}/start`,
    what: `exec ${execId.slice(0, 12)}`,
    body: { Detach: false, Tty: tty }
  });
}

/** Sets an exec's TTY size (the console's terminal was resized). */
export async function resizeExec(e: EngineClient, execId: string, cols: number, rows: number) {
  await e.call({
    method: 'POST',
    path: `/exec/${checkId('exec', execId)}/resize`,
    query: { h: rows, w: cols },
    what: `exec ${execId.slice(0, 12)}`
  });
}

/** Whether an exec still runs, and its exit code once it has ended. */
export async function inspectExec(e: EngineClient, execId: string) {
  const { body } = await e.call<{ Running: boolean; ExitCode: number | null }>({
    method: 'GET',
    path: `/exec/${checkId('exec', execId)}/json`,
    what: `exec ${execId.slice(0, 12)}`
  });
  return { running: body.Running, exitCode: body.ExitCode ?? undefined };
}

export async function removeContainer(e: EngineClient, id: string, force: boolean, v: boolean) {
  await e.call({
    method: 'DELETE',
    path: `/containers/${checkId('container', id)}`,
    query: { force, v },
    what: what(id)
  });
}

export async function pruneContainers(e: EngineClient, label?: string[]) {
  const { body } = await e.call<{ ContainersDeleted: string[] | null; SpaceReclaimed: number }>({
    method: 'POST',
    path: '/containers/prune',
    query: { filters: label?.length ? { label } : undefined },
    what: 'container prune'
  });
  return { removed: body.ContainersDeleted ?? [], spaceReclaimed: body.SpaceReclaimed ?? 0 };
}
