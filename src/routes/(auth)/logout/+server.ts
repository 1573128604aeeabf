import { redirect } from '@sveltejs/kit';
import { clearSessionCookie } from '$lib/server/console/session-cookie';
import { getApp } from '$lib/server/runtime';
import type { RequestHandler } from './$types';

export const POST: RequestHandler = ({ locals, cookies, url }) => {
  if (locals.user && locals.session)
    getApp().users.logout(locals.session.id, {
      id: locals.user.id,
      email: locals.user.email,
      ip: locals.clientIp
    });
  clearSessionCookie(cookies, url.protocol === 'https:');
  redirect(303, '/login');
};
