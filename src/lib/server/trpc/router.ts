import { router } from './init';
import { agentsRouter } from './routers/agents.router';
import { auditRouter } from './routers/audit.router';
import { buildfilesRouter } from './routers/buildfiles.router';
import { activityRouter, chatRouter } from './routers/chat.router';
import { credentialsRouter } from './routers/credentials.router';
import { engineRouter } from './routers/engine.router';
import { providersRouter } from './routers/providers.router';
import { sessionsRouter } from './routers/sessions.router';
import { skillsRouter } from './routers/skills.router';
import { usageRouter } from './routers/usage.router';
import { systemRouter } from './routers/system.router';
import { usersRouter } from './routers/users.router';
import { outboundRouter } from './routers/outbound.router';
import { webhooksRouter } from './routers/webhooks.router';

export const appRouter = router({
  users: usersRouter,
  audit: auditRouter,
  system: systemRouter,
  credentials: credentialsRouter,
  agents: agentsRouter,
  engine: engineRouter,
  providers: providersRouter,
  sessions: sessionsRouter,
  usage: usageRouter,
  webhooks: webhooksRouter,
  buildfiles: buildfilesRouter,
  skills: skillsRouter,
  chat: chatRouter,
  activity: activityRouter,
  outbound: outboundRouter
});
export type AppRouter = typeof appRouter;
