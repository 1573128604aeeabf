/** The console's login-session cookie, read by the SvelteKit hooks, socket.io's handshake and
 * /rpc/ws alike; it lives in http/ so realtime needs nothing from the gateway. */
export const SESSION_COOKIE = 'berth_session';

/** One cookie's value from a Cookie header; malformed headers simply yield nothing. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
