import { eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../client';
import { apiKeys, idempotencyKeys, rpcTokens } from '../schema';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type RpcTokenRow = typeof rpcTokens.$inferSelect;

export class AccessRepository {
  constructor(private readonly db: Db) {}

  activeApiKeys(): ApiKeyRow[] {
    return this.db.select().from(apiKeys).where(isNull(apiKeys.revokedAt)).all();
  }

  insertApiKey(row: typeof apiKeys.$inferInsert): ApiKeyRow {
    return this.db.insert(apiKeys).values(row).returning().get();
  }

  revokeApiKey(id: string, now: number): ApiKeyRow | undefined {
    return this.db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(eq(apiKeys.id, id))
      .returning()
      .get();
  }

  updateApiKey(id: string, patch: Partial<ApiKeyRow>): ApiKeyRow | undefined {
    return this.db.update(apiKeys).set(patch).where(eq(apiKeys.id, id)).returning().get();
  }

  /** Last-use times of console credentials, all in one transaction. */
  touch(uses: readonly { kind: 'rpc' | 'rest'; id: string; at: number }[]): void {
    this.db.transaction(() => {
      for (const { kind, id, at } of uses) {
        const table = kind === 'rpc' ? rpcTokens : apiKeys;
        this.db.update(table).set({ lastUsedAt: at }).where(eq(table.id, id)).run();
      }
    });
  }

  apiKeyByName(name: string): ApiKeyRow | undefined {
    return this.db.select().from(apiKeys).where(eq(apiKeys.name, name)).get();
  }

  activeRpcTokens(): RpcTokenRow[] {
    return this.db.select().from(rpcTokens).where(isNull(rpcTokens.revokedAt)).all();
  }

  rpcTokenByName(name: string): RpcTokenRow | undefined {
    return this.db.select().from(rpcTokens).where(eq(rpcTokens.name, name)).get();
  }

  insertRpcToken(row: typeof rpcTokens.$inferInsert): RpcTokenRow {
    return this.db.insert(rpcTokens).values(row).returning().get();
  }

  updateRpcToken(id: string, patch: Partial<RpcTokenRow>): RpcTokenRow | undefined {
    return this.db.update(rpcTokens).set(patch).where(eq(rpcTokens.id, id)).returning().get();
  }

  /** A remembered answer for an idempotency key, if it is younger than `since`. */
  idempotent(key: string, since: number): { status: number; body: string } | undefined {
    const row = this.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)).get();
    return row && row.createdAt >= since ? row : undefined;
  }

  remember(key: string, status: number, body: string, now: number): void {
    this.db
      .insert(idempotencyKeys)
      .values({ key, status, body, createdAt: now })
      .onConflictDoUpdate({ target: idempotencyKeys.key, set: { status, body, createdAt: now } })
      .run();
  }

  forgetIdempotencyBefore(cutoff: number): number {
    return this.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff)).run()
      .changes;
  }

  /** Runs `work` in one immediate transaction (an event and its idempotency key commit together). */
  atomically<T>(work: () => T): T {
    return this.db.transaction(() => work(), { behavior: 'immediate' });
  }
}
