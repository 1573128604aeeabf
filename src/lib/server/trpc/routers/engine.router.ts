import * as c from '$lib/contracts/engine';
import type { EngineActor } from '../../domain/engine/engine-access';
import { roleProcedure, router } from '../init';

/**
 * The engine operations for the console. Streams (logs, stats, events, exec, pull progress)
 * go over socket.io; here a pull waits for its end. Roles are checked here and again in the
 * domain, which also refuses host-reaching create options to anyone but an admin.
 */
const viewer = roleProcedure('viewer');
const operator = roleProcedure('operator');
const admin = roleProcedure('admin');

function actor(ctx: {
  actor: { id: string | null; email: string | null; ip: string | null };
  user: { role: EngineActor['role'] };
}): EngineActor {
  return { ...ctx.actor, role: ctx.user.role };
}

const containers = router({
  list: viewer
    .input(c.containerListSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.containers.list(actor(ctx), input)),
  create: operator
    .input(c.containerCreateSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.containers.create(actor(ctx), input)),
  start: operator
    .input(c.containerRefSchema)
    .mutation(({ ctx, input }) =>
      ctx.app.engineServices.containers.act(actor(ctx), input, 'start')
    ),
  stop: operator
    .input(c.containerStopSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.containers.act(actor(ctx), input, 'stop')),
  restart: operator
    .input(c.containerRefSchema)
    .mutation(({ ctx, input }) =>
      ctx.app.engineServices.containers.act(actor(ctx), input, 'restart')
    ),
  kill: operator
    .input(c.containerKillSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.containers.act(actor(ctx), input, 'kill')),
  pause: operator
    .input(c.containerRefSchema)
    .mutation(({ ctx, input }) =>
      ctx.app.engineServices.containers.act(actor(ctx), input, 'pause')
    ),
  unpause: operator
    .input(c.containerRefSchema)
    .mutation(({ ctx, input }) =>
      ctx.app.engineServices.containers.act(actor(ctx), input, 'unpause')
    ),
  inspect: viewer
    .input(c.containerRefSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.containers.inspect(actor(ctx), input)),
  top: viewer
    .input(c.containerRefSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.containers.top(actor(ctx), input)),
  changes: viewer
    .input(c.containerRefSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.containers.changes(actor(ctx), input)),
  stats: viewer
    .input(c.containerRefSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.containers.stats(actor(ctx), input)),
  remove: operator
    .input(c.containerRemoveSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.containers.remove(actor(ctx), input)),
  prune: operator
    .input(c.pruneSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.containers.prune(actor(ctx), input))
});

const images = router({
  list: viewer
    .input(c.imageListSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.images.list(actor(ctx), input)),
  inspect: viewer
    .input(c.imageRefInputSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.images.inspect(actor(ctx), input)),
  history: viewer
    .input(c.imageRefInputSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.images.history(actor(ctx), input)),
  pull: operator
    .input(c.imagePullSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.images.pullAndWait(actor(ctx), input)),
  remove: operator
    .input(c.imageRemoveSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.images.remove(actor(ctx), input)),
  prune: operator
    .input(c.pruneSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.images.prune(actor(ctx), input))
});

const networks = router({
  list: viewer
    .input(c.engineRefSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.networks.list(actor(ctx), input)),
  inspect: viewer
    .input(c.networkRefSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.networks.inspect(actor(ctx), input)),
  create: operator
    .input(c.networkCreateSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.networks.create(actor(ctx), input)),
  connect: operator
    .input(c.networkConnectSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.networks.connect(actor(ctx), input)),
  disconnect: operator
    .input(c.networkDisconnectSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.networks.disconnect(actor(ctx), input)),
  remove: operator
    .input(c.networkRefSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.networks.remove(actor(ctx), input)),
  prune: operator
    .input(c.pruneSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.networks.prune(actor(ctx), input))
});

const volumes = router({
  list: viewer
    .input(c.volumeListSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.volumes.list(actor(ctx), input)),
  inspect: viewer
    .input(c.volumeRefSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.volumes.inspect(actor(ctx), input)),
  create: operator
    .input(c.volumeCreateSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.volumes.create(actor(ctx), input)),
  remove: operator
    .input(c.volumeRefSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.volumes.remove(actor(ctx), input)),
  prune: operator
    .input(c.pruneSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.volumes.prune(actor(ctx), input))
});

const system = router({
  engines: viewer.query(({ ctx }) => ctx.app.engineServices.system.engines(actor(ctx))),
  info: viewer
    .input(c.engineRefSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.system.info(actor(ctx), input)),
  version: viewer
    .input(c.engineRefSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.system.version(actor(ctx), input)),
  ping: viewer
    .input(c.engineRefSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.system.ping(actor(ctx), input)),
  diskUsage: viewer
    .input(c.engineRefSchema)
    .query(({ ctx, input }) => ctx.app.engineServices.system.diskUsage(actor(ctx), input)),
  prune: operator
    .input(c.systemPruneSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.system.prune(actor(ctx), input))
});

/** Settings → Engines: remote engines added by admins; key material never comes back. */
const settings = router({
  list: admin.query(({ ctx }) => ctx.app.engineServices.settings.list(actor(ctx))),
  add: admin
    .input(c.engineAddSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.settings.add(actor(ctx), input)),
  remove: admin
    .input(c.engineRemoveSchema)
    .mutation(({ ctx, input }) => ctx.app.engineServices.settings.remove(actor(ctx), input))
});

export const engineRouter = router({ containers, images, networks, volumes, system, settings });
