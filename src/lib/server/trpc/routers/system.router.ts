import { roleProcedure, router } from '../init';

export const systemRouter = router({
  readiness: roleProcedure('viewer').query(({ ctx }) => ctx.app.readiness()),
  info: roleProcedure('viewer').query(({ ctx }) => ({
    startedAt: ctx.app.startedAt,
    node: process.version,
    configFile: ctx.app.config.file,
    engineApi: ctx.app.engine.apiVersion
  }))
});
