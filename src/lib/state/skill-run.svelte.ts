import type { SkillLogLine, SkillRunRecord } from '$lib/contracts/assistant';
import type { ChannelName } from '$lib/contracts/realtime';
import { appendLines } from '$lib/components/skills/run-lines';
import { LiveRoom } from './live-room.svelte';

/**
 * One run as it runs: its lines from `skill.run:<id>` (stdout, stderr and Berth's own), then
 * its record when it ends. Browser only: call start() from an effect or onMount.
 */
export class SkillRunWatch {
  lines = $state<SkillLogLine[]>([]);
  run = $state<SkillRunRecord | null>(null);
  readonly room: LiveRoom;

  /** After each (re)join the server repeats the lines it kept: those already shown are skipped. */
  #rejoined = true;
  readonly #channel: ChannelName;

  constructor(
    readonly runId: string,
    private readonly onended: (run: SkillRunRecord) => void
  ) {
    this.#channel = `skill.run:${runId}`;
    this.room = new LiveRoom(this.#channel, (socket) => {
      const connected = () => (this.#rejoined = true);
      const log = (p: { channel: string; lines: SkillLogLine[] }) => {
        if (p.channel === this.#channel) this.#add(p.lines);
      };
      const ended = (p: { channel: string; run: SkillRunRecord }) => {
        if (p.channel !== this.#channel || this.run) return;
        this.run = p.run;
        this.onended(p.run);
      };
      socket.on('connect', connected);
      socket.on('skill.log', log);
      socket.on('skill.ended', ended);
      return () => {
        socket.off('connect', connected);
        socket.off('skill.log', log);
        socket.off('skill.ended', ended);
      };
    });
  }

  start(): () => void {
    return this.room.start();
  }

  #add(batch: SkillLogLine[]): void {
    const afterJoin = this.#rejoined;
    this.#rejoined = false;
    this.lines = appendLines(this.lines, batch, afterJoin);
  }
}
