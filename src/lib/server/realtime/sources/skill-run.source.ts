import type { SkillService } from '../../domain/skills/skill.service';
import type { Publish, SourceHandle } from '../channel-hub';

/**
 * `skill.run:<run id>`: the lines a running run printed so far (the last ones kept), then each
 * new batch, then `skill.ended`. A finished run answers with its record at once.
 */
export function skillRunSource(skills: SkillService) {
  return (id: string, publish: Publish): SourceHandle => {
    const channel = `skill.run:${id}`;
    const greet = (send: Publish) => {
      const { lines, ended } = skills.snapshot(id);
      if (lines.length) send('skill.log', { channel, lines });
      if (ended) send('skill.ended', { channel, run: ended });
    };
    greet(publish);
    const stop = skills.follow(id, {
      lines: (lines) => publish('skill.log', { channel, lines }),
      ended: (run) => publish('skill.ended', { channel, run })
    });
    return { stop, welcome: (_options, send) => greet(send) };
  };
}
