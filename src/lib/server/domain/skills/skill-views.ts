import { z } from 'zod';
import type { SkillInfo, SkillRunRecord } from '$lib/contracts/assistant';
import type { SkillDefinition, SkillView } from '$lib/contracts/skills';
import type { SkillRunRow } from '../../db/repositories/skill-run.repository';
import type { BuiltinSkill } from './builtin-skills';
import type { ActiveDefinition } from './skill-definitions';

/** How skills and their runs look to callers: registry entries, console views, run records. */

/** A builtin's params as JSON Schema, made once: every turn lists the skills it offers. */
const builtinSchemas = new WeakMap<BuiltinSkill, SkillInfo['paramsSchema']>();

export function builtinInfo(s: BuiltinSkill): SkillInfo {
  let paramsSchema = builtinSchemas.get(s);
  if (!paramsSchema)
    builtinSchemas.set(s, (paramsSchema = z.toJSONSchema(s.params, { io: 'input' })));
  return { id: s.id, name: s.name, description: s.description, kind: 'builtin', paramsSchema };
}

export function definedInfo(d: SkillDefinition): SkillInfo {
  return {
    id: d.id,
    name: d.name ?? d.id,
    description: d.description,
    kind: d.kind,
    paramsSchema: d.paramsSchema
  };
}

export function activeView(active: ActiveDefinition): SkillView {
  return {
    ...definedInfo(active.definition),
    source: active.source,
    definition: active.definition,
    shadowed: false,
    updatedAt: active.row?.updatedAt ?? null
  };
}

export function toRecord(row: SkillRunRow): SkillRunRecord {
  return {
    runId: row.id,
    skillId: row.skillId,
    status: row.status,
    output: row.output ?? null,
    exitCode: row.exitCode ?? null,
    durationMs: row.durationMs ?? null,
    params: row.params,
    trigger: row.trigger,
    actor: row.actor ?? null,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt ?? null,
    logs: row.logs ?? null,
    error: row.error ?? null
  };
}

/** How much of a failed run's log a model is given: its last lines, up to this many characters. */
const MODEL_LOG_CHARS = 2048;

/**
 * What a model is told of a failed run beside the reason: the exit code, the output it gave
 * before failing (stdout, an endpoint's error body) and the tail of what it printed; Berth's own
 * `[berth]` lines are left out, the reason says them.
 */
export function failureDetails(run: SkillRunRecord): Record<string, unknown> {
  const printed = (run.logs ?? '')
    .split('\n')
    .filter((line) => !line.startsWith('[berth] '))
    .join('\n')
    .trim();
  return {
    ...(run.exitCode === null ? {} : { exitCode: run.exitCode }),
    ...(run.output === null || run.output === '' ? {} : { output: run.output }),
    ...(printed ? { logs: printed.slice(-MODEL_LOG_CHARS) } : {})
  };
}
