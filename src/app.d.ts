import type { SessionUser } from '$lib/contracts/users';

declare global {
  namespace App {
    interface Locals {
      requestId: string;
      clientIp: string;
      user: SessionUser | null;
      session: { id: string; expiresAt: number } | null;
    }
    interface Error {
      message: string;
      requestId?: string;
    }
  }
}

export {};
