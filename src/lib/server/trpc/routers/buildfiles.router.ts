import * as c from '$lib/contracts/buildfiles';
import type { EngineActor } from '../../domain/engine/engine-access';
import { roleProcedure, router } from '../init';

/**
 * The build-file studio: workspaces, their files, the context preview and builds. Viewers read;
 * operators and admins write and build. The domain checks the roles again. A build's output
 * streams over socket.io (`build.output:<id>`); here it starts, is cancelled and is read back.
 */
const viewer = roleProcedure('viewer');
const operator = roleProcedure('operator');

function actor(ctx: {
  actor: { id: string | null; email: string | null; ip: string | null };
  user: { role: EngineActor['role'] };
}): EngineActor {
  return { ...ctx.actor, role: ctx.user.role };
}

const workspaces = router({
  list: viewer.query(({ ctx }) => ctx.app.buildfiles.workspaces.list(actor(ctx))),
  create: operator
    .input(c.workspaceCreateSchema)
    .mutation(({ ctx, input }) => ctx.app.buildfiles.workspaces.create(actor(ctx), input)),
  rename: operator
    .input(c.workspaceRenameSchema)
    .mutation(({ ctx, input }) => ctx.app.buildfiles.workspaces.rename(actor(ctx), input)),
  delete: operator
    .input(c.workspaceRefSchema)
    .mutation(({ ctx, input }) => ctx.app.buildfiles.workspaces.delete(actor(ctx), input))
});

const files = router({
  tree: viewer
    .input(c.workspaceRefSchema)
    .query(({ ctx, input }) => ctx.app.buildfiles.workspaces.tree(actor(ctx), input)),
  read: viewer
    .input(c.filePathSchema)
    .query(({ ctx, input }) => ctx.app.buildfiles.workspaces.read(actor(ctx), input)),
  write: operator
    .input(c.fileWriteSchema)
    .mutation(({ ctx, input }) => ctx.app.buildfiles.workspaces.write(actor(ctx), input)),
  mkdir: operator
    .input(c.filePathSchema)
    .mutation(({ ctx, input }) => ctx.app.buildfiles.workspaces.mkdir(actor(ctx), input)),
  move: operator
    .input(c.fileMoveSchema)
    .mutation(({ ctx, input }) => ctx.app.buildfiles.workspaces.move(actor(ctx), input)),
  remove: operator
    .input(c.filePathSchema)
    .mutation(({ ctx, input }) => ctx.app.buildfiles.workspaces.remove(actor(ctx), input)),
  upload: operator
    .input(c.fileUploadSchema)
    .mutation(({ ctx, input }) => ctx.app.buildfiles.workspaces.upload(actor(ctx), input)),
  uploadArchive: operator
    .input(c.archiveUploadSchema)
    .mutation(({ ctx, input }) => ctx.app.buildfiles.workspaces.uploadArchive(actor(ctx), input)),
  contextPreview: viewer
    .input(c.contextPreviewSchema)
    .query(({ ctx, input }) => ctx.app.buildfiles.workspaces.contextPreview(actor(ctx), input))
});

const builds = router({
  start: operator
    .input(c.buildStartSchema)
    .mutation(({ ctx, input }) => ctx.app.buildfiles.builds.start(actor(ctx), input)),
  cancel: operator
    .input(c.buildIdSchema)
    .mutation(({ ctx, input }) => ctx.app.buildfiles.builds.cancel(actor(ctx), input)),
  list: viewer
    .input(c.buildListSchema)
    .query(({ ctx, input }) => ctx.app.buildfiles.builds.list(actor(ctx), input)),
  get: viewer
    .input(c.buildIdSchema)
    .query(({ ctx, input }) => ctx.app.buildfiles.builds.get(actor(ctx), input))
});

export const buildfilesRouter = router({ workspaces, files, builds });
