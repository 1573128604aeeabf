import type { Cookies } from '@sveltejs/kit';
import { SESSION_COOKIE } from '../http/cookie';

export function setSessionCookie(
  cookies: Cookies,
  token: string,
  expiresAt: number,
  secure: boolean
): void {
  cookies.set(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    expires: new Date(expiresAt)
  });
}

export function clearSessionCookie(cookies: Cookies, secure: boolean): void {
  cookies.delete(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}
