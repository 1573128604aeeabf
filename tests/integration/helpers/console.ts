/** The console's people: the first admin from the environment, and users it creates. */
import { expect } from 'vitest';
import { ADMIN, login, startBerth, trpc, type Berth, type StartOptions } from './berth';

/** The environment that makes ADMIN the first admin at start. */
export const ADMIN_ENV = { BERTH_ADMIN_EMAIL: ADMIN.email, BERTH_ADMIN_PASSWORD: ADMIN.password };
export const PASSWORD = 'a-long-password-1';

export type Role = 'viewer' | 'operator' | 'admin';

/** Starts Berth with ADMIN as its first admin, signed in; `admin` is its session cookie. */
export async function startWithAdmin(
  options: StartOptions = {}
): Promise<{ berth: Berth; admin: string }> {
  const berth = await startBerth({ ...options, env: { ...ADMIN_ENV, ...options.env } });
  return { berth, admin: await login(berth) };
}

/** Creates a user through the console API (named after its e-mail's local part); returns its id. */
export async function createUser(
  berth: Berth,
  admin: string,
  email: string,
  role: Role,
  password = PASSWORD
): Promise<string> {
  const res = await trpc(berth, admin, 'users.create', {
    email,
    name: email.split('@')[0],
    role,
    password
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.result!.data as { id: string }).id;
}

/** Creates `<role>@example.com` (or `email`) with that role and signs it in; returns the cookie. */
export async function signInAs(
  berth: Berth,
  admin: string,
  role: Role,
  email = `${role}@example.com`
): Promise<string> {
  await createUser(berth, admin, email, role);
  return login(berth, email, PASSWORD);
}
