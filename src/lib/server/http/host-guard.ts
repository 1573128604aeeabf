import { isLoopbackName } from '../loopback';

/** Hostname of a Host header: `[::1]:80` → `[::1]`, `example.com:443` → `example.com`. */
export function hostnameOf(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end < 0 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/** Refuses requests whose Host is neither the origin's nor a loopback name: DNS rebinding. */
export function createHostGuard(origin: string | undefined): (host: string | undefined) => boolean {
  const allowed = origin ? new URL(origin).hostname.toLowerCase() : null;
  return (host) => {
    if (!host) return false;
    const name = hostnameOf(host).toLowerCase();
    return name === allowed || name === `[${allowed}]` || isLoopbackName(name);
  };
}

/** An Origin header is acceptable when it names a host this server answers for. */
export function createOriginGuard(
  origin: string | undefined
): (originHeader: string | undefined, host: string | undefined) => boolean {
  const expected = origin ? new URL(origin).origin : null;
  return (originHeader, host) => {
    if (!originHeader) return false;
    let url: URL;
    try {
      url = new URL(originHeader);
    } catch {
      return false;
    }
    if (expected)
      return url.origin === expected || (isLoopbackName(url.hostname) && url.host === host);
    // Without ORIGIN the page must come from the very host:port the request was sent to.
    return url.host === host && (url.protocol === 'http:' || url.protocol === 'https:');
  };
}
