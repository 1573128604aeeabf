import type { ConfigValue, ReloadOutcome } from '$lib/contracts/config-view';
import { roleProcedure, router } from '../init';

const admin = roleProcedure('admin');

export const systemRouter = router({
  readiness: roleProcedure('viewer').query(({ ctx }) => ctx.app.readiness()),
  info: roleProcedure('viewer').query(({ ctx }) => ({
    startedAt: ctx.app.startedAt,
    node: process.version,
    configFile: ctx.app.config.file,
    engineApi: ctx.app.engine.apiVersion
  })),
  /** Every value in force and where it came from, secrets masked. */
  config: admin.query(({ ctx }): { file: string | null; values: ConfigValue[] } => ({
    file: ctx.app.config.file,
    values: ctx.app.config.describe()
  })),
  /** Reads the file again; an invalid one is reported by key path and the old one stays. */
  reload: admin.mutation(({ ctx }): ReloadOutcome => {
    const result = ctx.app.config.reload();
    ctx.app.audit.record(
      ctx.actor,
      result.ok ? 'system.reload' : 'system.reload.refused',
      ctx.app.config.file,
      result.ok ? { changes: result.changes } : { issues: result.issues }
    );
    return result;
  })
});
