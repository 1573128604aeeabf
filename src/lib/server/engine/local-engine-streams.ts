import { DomainError } from '../errors';
import type { EngineClient } from './engine.client';
import type { EngineStreamsLookup } from './engine-streams';
import { LOCAL_ENGINE } from './engine.registry';
import { RawEngineStreams } from './raw-streams';

/** Streams of the one engine Berth knows today, on the version its client pinned. */
export function localEngineStreams(client: EngineClient): EngineStreamsLookup {
  const streams = new RawEngineStreams(client.target, async () => {
    if (!client.apiVersion) await client.check();
    if (!client.apiVersion) throw new DomainError('ENGINE_UNAVAILABLE', 'no engine is available');
    return client.apiVersion;
  });
  return (name) => (name === LOCAL_ENGINE ? streams : null);
}
