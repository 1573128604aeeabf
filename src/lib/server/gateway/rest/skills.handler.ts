import type { SkillRunRecord } from '$lib/contracts/assistant';
import { sendJson } from '../../http/fast-router';
import { readJsonBody } from '../http/body';
import type { RestContext } from './rest.handler';
import { parseBody, skillTriggerBody } from './rest.schemas';

/** GET /skills/list */
export function listSkills(ctx: RestContext): void {
  sendJson(ctx.res, 200, { skills: ctx.deps.skills.list() });
}

/** POST /skills/trigger: unknown skill → 404, params failing its schema → 400 (domain errors). */
export async function triggerSkill(ctx: RestContext): Promise<void> {
  const { deps, caller, res } = ctx;
  const body = parseBody(skillTriggerBody, await readJsonBody(ctx.req, deps.bodyLimit));
  const { runId, done } = deps.skills.start(body.skill_id, body.params ?? {}, {
    trigger: 'rest',
    actor: caller.name
  });
  // gateway.rest.skillWaitMs: how long the request is held for the run before answering 202.
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deps.config.current.gateway.rest.skillWaitMs);
  });
  const run = await Promise.race([done, timeout]);
  clearTimeout(timer);
  if (!run) {
    sendJson(
      res,
      202,
      { runId, status: 'running' },
      { Location: `/api/v1/skills/runs/${encodeURIComponent(runId)}` }
    );
    return;
  }
  sendJson(res, 200, runSummary(run));
}

function runSummary(run: SkillRunRecord) {
  return {
    runId: run.runId,
    skillId: run.skillId,
    status: run.status,
    output: run.output,
    exitCode: run.exitCode,
    durationMs: run.durationMs,
    ...(run.status === 'failed' ? { error: run.error } : {})
  };
}
