import type { IncomingMessage } from 'node:http';
import type { EngineClient } from './engine.client';
import { checkId } from './engine.ids';

/** Image operations of the spec, on one engine. Pull and build answer progress streams. */
export interface ImageSummary {
  Id: string;
  RepoTags: string[] | null;
  RepoDigests: string[] | null;
  Created: number;
  Size: number;
  Labels: Record<string, string> | null;
}

const what = (name: string) => `image ${name}`;

export async function listImages(e: EngineClient, dangling?: boolean) {
  const filters = dangling === undefined ? undefined : { dangling: [String(dangling)] };
  return e
    .call<ImageSummary[]>({
      method: 'GET',
      path: '/images/json',
      query: { filters },
      what: 'the image list'
    })
    .then((r) => r.body);
}

/**
 * Pulls `fromImage:tag`; `registryAuth` is the already encoded X-Registry-Auth value, from
 * credentials kept on the server. The answer is JSON progress lines; a failure arrives as an
 * `{error}` line inside a 200 stream, which the reader of the stream must check.
 */
export async function pullImage(
  e: EngineClient,
  fromImage: string,
  tag: string,
  registryAuth?: string
): Promise<IncomingMessage> {
  return e.stream({
    method: 'POST',
    path: '/images/create',
    query: { fromImage: checkId('image', fromImage), tag },
    headers: registryAuth ? { 'X-Registry-Auth': registryAuth } : undefined,
    what: what(`${fromImage}:${tag}`)
  });
}

/**
 * Builds from a tar stream of the context; progress lines as for pull. `forcerm` makes the
 * engine remove intermediate containers even when a step fails or the request is closed.
 */
export async function buildImage(
  e: EngineClient,
  context: NodeJS.ReadableStream,
  opts: {
    t: string;
    buildfile?: string;
    buildargs?: Record<string, string>;
    labels?: Record<string, string>;
    /** The stage to build (a multi-stage build stops there). */
    target?: string;
    nocache?: boolean;
    /** Pull newer versions of the base images first. */
    pull?: boolean;
  }
): Promise<IncomingMessage> {
  return e.stream({
    method: 'POST',
    path: '/build',
    query: {
      t: checkId('image', opts.t),
      dockerfile: opts.buildfile,
      buildargs: opts.buildargs,
      labels: opts.labels,
      target: opts.target,
      nocache: opts.nocache,
      pull: opts.pull,
      forcerm: true
    },
    headers: { 'Content-Type': 'application/x-tar' },
    file: context,
    what: what(opts.t)
  });
}

async function read<T>(e: EngineClient, name: string, leaf: string) {
  return e
    .call<T>({ method: 'GET', path: `/images/${checkId('image', name)}/${leaf}`, what: what(name) })
    .then((r) => r.body);
}

export const inspectImage = async (e: EngineClient, name: string) =>
  read<Record<string, unknown>>(e, name, 'json');
export const imageHistory = async (e: EngineClient, name: string) =>
  read<{ Id: string; Created: number; CreatedBy: string; Size: number; Tags: string[] | null }[]>(
    e,
    name,
    'history'
  );

export async function removeImage(e: EngineClient, name: string, force: boolean, noprune: boolean) {
  const { body } = await e.call<{ Untagged?: string; Deleted?: string }[]>({
    method: 'DELETE',
    path: `/images/${checkId('image', name)}`,
    query: { force, noprune },
    what: what(name)
  });
  return body;
}

export async function pruneImages(e: EngineClient, label?: string[]) {
  const { body } = await e.call<{
    ImagesDeleted: { Untagged?: string; Deleted?: string }[] | null;
    SpaceReclaimed: number;
  }>({
    method: 'POST',
    path: '/images/prune',
    query: { filters: label?.length ? { label } : undefined },
    what: 'image prune'
  });
  const removed = (body.ImagesDeleted ?? []).flatMap((d) => d.Deleted ?? d.Untagged ?? []);
  return { removed, spaceReclaimed: body.SpaceReclaimed ?? 0 };
}
