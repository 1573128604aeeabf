import type { IncomingMessage, ServerResponse } from 'node:http';
import { endSoon } from './flush';
import { API_HEADERS } from './security-headers';

/**
 * The one routing table for requests answered ahead of SvelteKit (probes now; the gateway's
 * REST, RPC and webhook adapters later). Matching is a map lookup on method + path, so the
 * hot paths cost no regex walk and no SvelteKit request object.
 */
export type Interface = 'probe' | 'rest' | 'rpc' | 'webhook';

export interface FastRoute {
  method: string;
  path: string;
  interface: Interface;
  /** Writes the whole answer; API_HEADERS go in its writeHead (see sendJson). */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): void | Promise<void>;
  /**
   * Writes an error the front decides before `handle` runs (413 on Content-Length), in this
   * interface's error format (REST: problem+json). Without it the front's JSON shape is used.
   */
  sendError?(
    res: ServerResponse,
    status: number,
    message: string,
    headers: Record<string, string>
  ): void;
}

export interface PrefixRoute extends Omit<FastRoute, 'method'> {
  /** Matches `path` and everything below it, any method. */
  prefix: true;
}

/** A part of the routing table (REST, /rpc, webhooks), added to the router together. */
export interface RouteSet {
  exact: FastRoute[];
  prefix: PrefixRoute[];
}

export class FastRouter {
  readonly #exact = new Map<string, FastRoute>();
  readonly #prefixes: PrefixRoute[] = [];

  /** Empties the table (the gateway's paths follow the configuration on reload). */
  clear(): this {
    this.#exact.clear();
    this.#prefixes.length = 0;
    return this;
  }

  add(route: FastRoute): this {
    this.#exact.set(`${route.method} ${route.path}`, route);
    return this;
  }

  addPrefix(route: PrefixRoute): this {
    this.#prefixes.push(route);
    this.#prefixes.sort((a, b) => b.path.length - a.path.length);
    return this;
  }

  match(method: string, pathname: string): FastRoute | PrefixRoute | undefined {
    const exact = this.#exact.get(`${method} ${pathname}`);
    if (exact) return exact;
    for (const route of this.#prefixes)
      if (pathname === route.path || pathname.startsWith(`${route.path}/`)) return route;
    return undefined;
  }

  /** A path this table owns with another method: the caller answers 405. */
  allows(pathname: string): string[] {
    const methods: string[] = [];
    for (const route of this.#exact.values())
      if (route.path === pathname) methods.push(route.method);
    return methods;
  }
}

/**
 * Writes a whole JSON answer. `now`: for answers made in the check phase (after a group
 * commit), where waiting for the next check phase would only add a loop turn.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  when: 'soon' | 'now' = 'soon'
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...API_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers
  });
  if (when === 'now') res.end(text);
  else endSoon(res, text);
}
