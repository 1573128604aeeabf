import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { RequestHandler } from './$types';
import { appRouter } from '$lib/server/trpc/router';
import { retryAfterHeaders } from '$lib/server/trpc/init';
import { getApp } from '$lib/server/runtime';

const handle: RequestHandler = (event) =>
  fetchRequestHandler({
    endpoint: '/api/trpc',
    req: event.request,
    router: appRouter,
    createContext: () => ({
      app: getApp(),
      user: event.locals.user,
      sessionId: event.locals.session?.id ?? null,
      ip: event.locals.clientIp
    }),
    responseMeta: ({ errors }) => retryAfterHeaders(errors),
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR')
        getApp().logger.error({ err: error, path }, 'tRPC failed');
    }
  });

export const GET = handle;
export const POST = handle;
