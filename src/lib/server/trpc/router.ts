import { router } from './init';
import { auditRouter } from './routers/audit.router';
import { credentialsRouter } from './routers/credentials.router';
import { systemRouter } from './routers/system.router';
import { usersRouter } from './routers/users.router';

export const appRouter = router({
  users: usersRouter,
  audit: auditRouter,
  system: systemRouter,
  credentials: credentialsRouter
});
export type AppRouter = typeof appRouter;
