import type { EngineEvent } from '$lib/contracts/realtime';
import type { EngineStreamsLookup } from '../../engine/engine-streams';
import { JsonLines } from '../../engine/json-lines';
import type { Publish, SourceHandle } from '../channel-hub';
import { runStreamSource } from './stream-source';

interface RawEvent {
  Type?: string;
  Action?: string;
  Actor?: { ID?: string; Attributes?: Record<string, string> };
  time?: number;
  timeNano?: number;
}

/** One event stream per `engine.events:<engine>` channel, from the moment of the first join. */
export function engineEventsSource(engines: EngineStreamsLookup) {
  return (engine: string, publish: Publish): SourceHandle => {
    const streams = engines(engine);
    if (!streams) throw new Error(`no engine is named ${engine}`);
    const channel = `engine.events:${engine}`;
    return runStreamSource(
      {
        channel,
        open: () => streams.openEvents(),
        parser: () => new JsonLines(),
        onItems: (items) => {
          for (const raw of items as RawEvent[])
            publish('engine.event', { channel, event: toEngineEvent(raw) });
        },
        endedReason: 'the event stream ended: the engine closed it'
      },
      publish
    );
  };
}

function toEngineEvent(raw: RawEvent): EngineEvent {
  return {
    type: raw.Type ?? '',
    action: raw.Action ?? '',
    actor: { id: raw.Actor?.ID ?? '', attributes: raw.Actor?.Attributes ?? {} },
    time: raw.time ?? 0,
    // Beyond 2^53, so rounded to about 100 ns: enough to order events.
    timeNano: raw.timeNano ?? (raw.time ?? 0) * 1e9
  };
}
