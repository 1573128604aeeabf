import type { EngineStreamsLookup } from '../../engine/engine-streams';
import { JsonLines } from '../../engine/json-lines';
import { toStatsSample, type RawStats } from './stats-sample';
import type { Publish, SourceHandle } from '../channel-hub';
import { runStreamSource } from './stream-source';

/** One stats stream per `container.stats:<engine>:<id>` channel; CPU % from the previous sample. */
export function containerStatsSource(engines: EngineStreamsLookup) {
  return ({ engine, id }: { engine: string; id: string }, publish: Publish): SourceHandle => {
    const streams = engines(engine);
    if (!streams) throw new Error(`no engine is named ${engine}`);
    const channel = `container.stats:${engine}:${id}`;
    let previous: RawStats | null = null;
    return runStreamSource(
      {
        channel,
        open: () => streams.openStats(id),
        parser: () => new JsonLines(),
        onItems: (items) => {
          for (const raw of items as RawStats[]) {
            const sample = toStatsSample(raw, previous);
            previous = raw;
            publish('container.stats', { channel, sample });
          }
        },
        endedReason: 'the stats stream ended: the container stopped, or the engine closed it'
      },
      publish
    );
  };
}
