import { and, asc, count, eq } from 'drizzle-orm';
import type { Role } from '$lib/contracts/roles';
import type { Db } from '../client';
import { users } from '../schema';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export class UserRepository {
  constructor(private readonly db: Db) {}

  count(): number {
    return this.db.select({ n: count() }).from(users).get()?.n ?? 0;
  }

  list(): UserRow[] {
    return this.db.select().from(users).orderBy(asc(users.createdAt)).all();
  }

  byId(id: string): UserRow | undefined {
    return this.db.select().from(users).where(eq(users.id, id)).get();
  }

  byEmail(email: string): UserRow | undefined {
    return this.db.select().from(users).where(eq(users.email, email)).get();
  }

  insert(row: NewUserRow): UserRow {
    return this.db.insert(users).values(row).returning().get();
  }

  /** Inserts only while the table is empty, atomically: the first admin is made once. */
  insertIfNone(row: NewUserRow): UserRow | undefined {
    return this.db.transaction(
      (tx) => {
        const n = tx.select({ n: count() }).from(users).get()?.n ?? 0;
        if (n > 0) return undefined;
        return tx.insert(users).values(row).returning().get();
      },
      { behavior: 'immediate' }
    );
  }

  update(
    id: string,
    patch: Partial<Pick<UserRow, 'role' | 'disabled' | 'passwordHash' | 'name' | 'lastLoginAt'>>
  ): UserRow | undefined {
    return this.db
      .update(users)
      .set({ ...patch, updatedAt: Date.now() })
      .where(eq(users.id, id))
      .returning()
      .get();
  }

  /** Admins who can still sign in: the last one may not be demoted or disabled. */
  countActiveAdmins(): number {
    return (
      this.db
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.role, 'admin' satisfies Role), eq(users.disabled, false)))
        .get()?.n ?? 0
    );
  }
}
