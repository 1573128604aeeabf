import type { SessionUser } from '$lib/contracts/users';

declare global {
  namespace App {
    interface Locals {
      requestId: string;
      clientIp: string;
      user: SessionUser | null;
      session: { id: string; expiresAt: number } | null;
      /** Set by the route guard when a signed-in user lacks the page's role. */
      deniedFor: import('$lib/contracts/roles').Role | null;
      /** Set when storage refused a write (locked database, full disk): the answer becomes 503. */
      storageRetryAfter?: number;
    }
    interface Error {
      message: string;
      requestId?: string;
      /** The browser could not reach Berth (set by hooks.client.ts). */
      unreachable?: boolean;
    }
  }
}

export {};
