import type { BuildService } from '../../domain/buildfiles/build.service';
import type { Publish, SourceHandle } from '../channel-hub';

/**
 * `build.output:<build id>`: what the build printed so far (the last lines kept), then each new
 * batch of lines, then `build.ended`. A member joining later gets the same start, to itself.
 */
export function buildOutputSource(builds: BuildService) {
  return (id: string, publish: Publish): SourceHandle => {
    const channel = `build.output:${id}`;
    const greet = (send: Publish) => {
      const { lines, ended } = builds.snapshot(id);
      if (lines.length) send('build.output', { channel, lines });
      if (ended) send('build.ended', { channel, build: ended });
    };
    greet(publish);
    const stop = builds.follow(id, {
      lines: (lines) => publish('build.output', { channel, lines }),
      ended: (build) => publish('build.ended', { channel, build })
    });
    return { stop, welcome: (_options, send) => greet(send) };
  };
}
