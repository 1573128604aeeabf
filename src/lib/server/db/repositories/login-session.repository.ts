import { and, eq, lt, ne, or } from 'drizzle-orm';
import type { Db } from '../client';
import { loginSessions, users } from '../schema';

export type LoginSessionRow = typeof loginSessions.$inferSelect;

export class LoginSessionRepository {
  constructor(private readonly db: Db) {}

  insert(row: LoginSessionRow): void {
    this.db.insert(loginSessions).values(row).run();
  }

  /** The session joined with its user, in one read. */
  withUser(id: string) {
    return this.db
      .select({ session: loginSessions, user: users })
      .from(loginSessions)
      .innerJoin(users, eq(users.id, loginSessions.userId))
      .where(eq(loginSessions.id, id))
      .get();
  }

  extend(id: string, expiresAt: number): void {
    this.db.update(loginSessions).set({ expiresAt }).where(eq(loginSessions.id, id)).run();
  }

  delete(id: string): void {
    this.db.delete(loginSessions).where(eq(loginSessions.id, id)).run();
  }

  /** Deletes a user's sessions, optionally keeping one; returns the ids removed. */
  deleteForUser(userId: string, keep?: string): string[] {
    const where = keep
      ? and(eq(loginSessions.userId, userId), ne(loginSessions.id, keep))
      : eq(loginSessions.userId, userId);
    return this.db
      .delete(loginSessions)
      .where(where)
      .returning({ id: loginSessions.id })
      .all()
      .map((r) => r.id);
  }

  /** Deletes sessions idle past their expiry or signed in before `createdBefore`. */
  deleteExpired(now: number, createdBefore: number): number {
    return this.db
      .delete(loginSessions)
      .where(or(lt(loginSessions.expiresAt, now), lt(loginSessions.createdAt, createdBefore)))
      .run().changes;
  }
}
