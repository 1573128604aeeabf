import { fail, redirect } from '@sveltejs/kit';
import { loginInput } from '$lib/contracts/users';
import { safeNext } from '$lib/server/console/route-access';
import { field } from '$lib/server/console/form';
import { setSessionCookie } from '$lib/server/console/session-cookie';
import { isLoopbackAddress } from '$lib/server/loopback';
import { getApp } from '$lib/server/runtime';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = ({ locals, url }) => {
  if (locals.user) redirect(303, safeNext(url.searchParams.get('next'), locals.user.role));
  const app = getApp();
  const needsSetup = !app.users.hasUsers();
  if (needsSetup && isLoopbackAddress(locals.clientIp)) redirect(303, '/setup');
  return { needsSetup };
};

export const actions: Actions = {
  default: async ({ request, cookies, locals, url }) => {
    const form = await request.formData();
    const email = field(form, 'email');
    const parsed = loginInput.safeParse({ email, password: field(form, 'password') });
    if (!parsed.success)
      return fail(400, { email, message: 'Enter your e-mail address and password' });
    const app = getApp();
    const result = await app.users.login(parsed.data.email, parsed.data.password, {
      ip: locals.clientIp,
      userAgent: request.headers.get('user-agent')
    });
    app.metrics.logins.inc({ outcome: result.ok ? 'ok' : result.reason });
    if (!result.ok) {
      if (result.reason === 'throttled')
        return fail(429, {
          email,
          message: `Too many attempts. Try again in ${result.retryAfterSeconds} s.`,
          retryAfterSeconds: result.retryAfterSeconds
        });
      if (result.reason === 'disabled')
        return fail(403, {
          email,
          message: 'This account is disabled. Ask an admin of this Berth to enable it.'
        });
      return fail(400, { email, message: 'Wrong e-mail address or password' });
    }
    setSessionCookie(cookies, result.token, result.expiresAt, url.protocol === 'https:');
    redirect(303, safeNext(url.searchParams.get('next'), result.user.role));
  }
};
