import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { chatSessions, messages } from '../schema';
import { everyColumn } from './placeholders';

export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = Omit<typeof messages.$inferInsert, 'sessionId' | 'seq'>;

const p = sql.placeholder;

/**
 * The writes every turn makes to its session (find it, number and insert a message, touch
 * it), compiled once per connection: building each query and preparing it in SQLite cost
 * about as much as running it, twice a turn and 200 turns a second in a heartbeat backlog.
 */
function compile(db: Db) {
  return {
    sessionByKey: db
      .select({ id: chatSessions.id })
      .from(chatSessions)
      .where(and(eq(chatSessions.agentName, p('agentName')), eq(chatSessions.key, p('key'))))
      .prepare(),
    touch: db
      .update(chatSessions)
      .set({ updatedAt: sql`${p('at')}` })
      .where(eq(chatSessions.id, p('id')))
      .prepare(),
    lastSeq: db
      .select({ max: sql<number | null>`max(${messages.seq})` })
      .from(messages)
      .where(eq(messages.sessionId, p('sessionId')))
      .prepare(),
    insert: db.insert(messages).values(everyColumn(messages)).prepare()
  };
}

const compiled = new WeakMap<Db, ReturnType<typeof compile>>();

function statements(db: Db) {
  let s = compiled.get(db);
  if (!s) compiled.set(db, (s = compile(db)));
  return s;
}

/** The id of an agent's session by key, if it exists. */
export function sessionIdByKey(db: Db, agentName: string, key: string): string | undefined {
  return statements(db).sessionByKey.get({ agentName, key })?.id;
}

/** Marks the session changed at `at`. */
export function touchSession(db: Db, id: string, at: number): void {
  statements(db).touch.run({ id, at });
}

/** The number the session's next message takes (run in the transaction that inserts it). */
export function nextSeq(db: Db, sessionId: string): number {
  return (statements(db).lastSeq.get({ sessionId })?.max ?? 0) + 1;
}

/** Inserts the session's next message (numbered here; run inside a transaction). */
export function insertMessage(db: Db, sessionId: string, message: NewMessage): MessageRow {
  const row: MessageRow = {
    turnId: null,
    channel: null,
    userId: null,
    tokens: 0,
    compactedBy: null,
    ...definedOnly(message),
    sessionId,
    seq: nextSeq(db, sessionId)
  };
  statements(db).insert.run(row);
  return row;
}

/** `row` without its undefined fields, so they take the defaults a spread puts before them. */
export function definedOnly<T extends object>(row: T): T {
  const kept = {} as T;
  for (const key in row) if (row[key] !== undefined) kept[key] = row[key];
  return kept;
}
