import type { Db } from '../client';

/** Events written by one statement when inserts are held together: about 1.3 µs less a row. */
export const ROWS_PER_INSERT = 32;

const insertRows = (rows: number) =>
  `insert into system_events (id, agent_name, state, text, metadata, source, created_at)
   values ${Array.from({ length: rows }, () => `(?, ?, 'queued', ?, ?, ?, ?)`).join(', ')}`;

/** The statements of EventRepository, compiled once per connection. */
export function statements(sqlite: Db['$client']) {
  // The rowids and sizes (UTF-8) of an agent's oldest queued events after a rowid (up to
  // another), at most @limit. octet_length reads a text's size, not the text: a slice of long
  // texts reads no more of them than it takes.
  const head = `select rowid, octet_length(text) from system_events
    where agent_name = @agent and rowid > @after and rowid <= @upto and state = 'queued'
    order by rowid limit @limit`;
  // A claim's lines, built by SQLite: a row object per event cost three times as much.
  const lines = `select group_concat('- ' || text || coalesce(' (source: ' ||
      case json_type(metadata, '$.source') when 'text' then metadata ->> '$.source' end || ')', ''),
      char(10) order by rowid) lines
    from system_events
    where agent_name = ? and rowid between ? and ? and state = 'queued'`;
  return {
    insert: sqlite.prepare(insertRows(1)),
    insertMany: sqlite.prepare(insertRows(ROWS_PER_INSERT)),
    byId: sqlite.prepare(`select * from system_event_states where id = ?`),
    head: sqlite.prepare(head).raw(),
    lines: sqlite.prepare(lines).pluck(),
    // The newest slice: the agent's queue goes on after its last event.
    newest: sqlite.prepare(
      `select last_rowid from event_slices where agent_name = ?
       order by first_rowid desc limit 1`
    ),
    requeued: sqlite.prepare(
      `select id, agent_name, first_rowid, last_rowid, count from event_slices
       where agent_name = ? and state = 'queued' order by first_rowid limit 1`
    ),
    requeuedCount: sqlite.prepare(
      `select coalesce(sum(count), 0) n from event_slices where agent_name = ? and state = 'queued'`
    ),
    retake: sqlite.prepare(
      `update event_slices set state = @state, turn_id = @turnId, processed_at = @at where id = @id`
    ),
    shrink: sqlite.prepare(
      `update event_slices set first_rowid = @first, count = count - @taken where id = @id`
    ),
    addSlice: sqlite.prepare(
      `insert into event_slices (agent_name, first_rowid, last_rowid, count, state, turn_id, processed_at)
       values (@agent, @first, @last, @count, @state, @turnId, @at)`
    ),
    inSlice: sqlite.prepare(
      `select rowid rid, id, agent_name, text, metadata, source, created_at from system_events
       where agent_name = ? and rowid between ? and ? and state = 'queued' order by rowid`
    ),
    anyAfter: sqlite.prepare(
      `select 1 from system_events where agent_name = ? and rowid > ? and state = 'queued' limit 1`
    ),
    countAfter: sqlite.prepare(
      `select count(*) n from system_events where agent_name = ? and rowid > ? and state = 'queued'`
    ),
    finish: sqlite.prepare(
      `update event_slices set state = @state, processed_at = @now
       where turn_id = @turnId and state = 'processing'
       returning id, agent_name, first_rowid, last_rowid, count`
    ),
    nextAgent: sqlite.prepare(
      `select agent_name from system_events where agent_name > ? order by agent_name limit 1`
    )
  };
}

export type Statements = ReturnType<typeof statements>;
