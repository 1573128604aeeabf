import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SkillLogLine, SkillRunRecord } from '$lib/contracts/assistant';

import { openDatabase } from '../../db/client';
import { SkillRunRepository } from '../../db/repositories/skill-run.repository';
import { AuditRepository } from '../../db/repositories/audit.repository';
import { EngineRegistry } from '../../engine/engine.registry';
import { AuditService } from '../audit/audit.service';
import { DomainBus } from '../bus';
import { skillRunners } from './runners';
import { SkillService } from './skill.service';

describe('skill run feed', () => {
  it('gives a watcher the kept lines, each new line, then the record; a finished run its record', async () => {
    const { db } = openDatabase(
      join(mkdtempSync(join(tmpdir(), 'berth-feed-')), 'b.db'),
      resolve('drizzle')
    );
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const skills = new SkillService(
      new SkillRunRepository(db),
      [
        {
          id: 'talk',
          name: 'Talk',
          description: 'prints',
          params: z.record(z.string(), z.unknown()),
          run: async (_p, _s, log) => {
            log('stdout', 'one');
            await gate;
            log('stderr', 'two');
            return 'done';
          }
        }
      ],
      {
        fileSkills: [],
        runners: skillRunners(new EngineRegistry({ socketPath: '/nonexistent' })),
        audit: new AuditService(new AuditRepository(db), new DomainBus())
      }
    );
    const { runId, done } = skills.start('talk', {}, { trigger: 'test', actor: null });
    expect(skills.snapshot(runId).lines.map((l) => l.text)).toEqual(['one']);
    const seen: SkillLogLine[] = [];
    let ended: SkillRunRecord | undefined;
    skills.follow(runId, { lines: (l) => seen.push(...l), ended: (r) => (ended = r) });
    release();
    await done;
    expect(seen).toEqual([expect.objectContaining({ stream: 'stderr', text: 'two' })]);
    expect(ended?.status).toBe('completed');
    expect(skills.snapshot(runId).lines).toEqual([]);
    expect(skills.snapshot(runId).ended?.runId).toBe(runId);
    expect(skills.snapshot(crypto.randomUUID()).ended).toBeNull();
  });
});
