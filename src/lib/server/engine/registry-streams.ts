import { DomainError } from '../errors';
import type { EngineClient } from './engine.client';
import type { EngineStreamsLookup } from './engine-streams';
import type { EngineRegistry } from './engine.registry';
import { RawEngineStreams } from './raw-streams';

/**
 * Streams of every engine the registry knows (the local one, berth.yaml's and the console's),
 * each on the version its client pinned. Made once per client: a reload that rebuilds an
 * engine's client makes its streams anew.
 */
export function registryEngineStreams(registry: EngineRegistry): EngineStreamsLookup {
  const made = new WeakMap<EngineClient, RawEngineStreams>();
  return (name) => {
    if (!registry.sourceOf(name)) return null;
    const client = registry.get(name); // an engine whose TLS files are unreadable says so
    let streams = made.get(client);
    if (!streams) {
      streams = new RawEngineStreams(client.target, () => pinnedVersion(client, name));
      made.set(client, streams);
    }
    return streams;
  };
}

async function pinnedVersion(client: EngineClient, name: string): Promise<string> {
  if (client.apiVersion) return client.apiVersion;
  const check = await client.check();
  if (client.apiVersion) return client.apiVersion;
  throw new DomainError('ENGINE_UNAVAILABLE', `engine ${name}: ${check.detail ?? 'not answering'}`);
}
