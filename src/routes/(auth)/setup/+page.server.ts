import { error, fail, redirect } from '@sveltejs/kit';
import { setupInput } from '$lib/contracts/users';
import { isDomainError } from '$lib/server/errors';
import { field } from '$lib/server/console/form';
import { setSessionCookie } from '$lib/server/console/session-cookie';
import { isLoopbackAddress } from '$lib/server/loopback';
import { getApp } from '$lib/server/runtime';
import type { Actions, PageServerLoad } from './$types';

/** The first admin is made from this machine only, never by a remote stranger. */
function assertCanSetUp(clientIp: string): void {
  if (getApp().users.hasUsers()) redirect(303, '/login');
  if (!isLoopbackAddress(clientIp))
    error(
      403,
      'Set-up is only possible from this machine (http://127.0.0.1), or start Berth with BERTH_ADMIN_EMAIL and BERTH_ADMIN_PASSWORD'
    );
}

export const load: PageServerLoad = ({ locals }) => {
  assertCanSetUp(locals.clientIp);
  return {};
};

export const actions: Actions = {
  default: async ({ request, locals, cookies, url }) => {
    assertCanSetUp(locals.clientIp);
    const form = await request.formData();
    const values = {
      email: field(form, 'email'),
      name: field(form, 'name'),
      password: field(form, 'password')
    };
    if (values.password !== field(form, 'confirm'))
      return fail(400, {
        email: values.email,
        name: values.name,
        message: 'The two passwords differ'
      });
    const parsed = setupInput.safeParse(values);
    if (!parsed.success)
      return fail(400, {
        email: values.email,
        name: values.name,
        message: parsed.error.issues
          .map((i) => `${String(i.path[0] ?? '')}: ${i.message}`)
          .join('; ')
      });
    const app = getApp();
    try {
      await app.users.createFirstAdmin(parsed.data, {
        id: null,
        email: parsed.data.email,
        ip: locals.clientIp
      });
    } catch (err) {
      if (isDomainError(err) && err.code === 'CONFLICT') redirect(303, '/login');
      throw err;
    }
    const login = await app.users.login(parsed.data.email, parsed.data.password, {
      ip: locals.clientIp,
      userAgent: request.headers.get('user-agent')
    });
    if (login.ok)
      setSessionCookie(cookies, login.token, login.expiresAt, url.protocol === 'https:');
    redirect(303, '/');
  }
};
