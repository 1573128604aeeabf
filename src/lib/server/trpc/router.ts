import { router } from './init';
import { auditRouter } from './routers/audit.router';
import { systemRouter } from './routers/system.router';
import { usersRouter } from './routers/users.router';

export const appRouter = router({ users: usersRouter, audit: auditRouter, system: systemRouter });
export type AppRouter = typeof appRouter;
