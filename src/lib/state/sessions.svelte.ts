import { trpc } from '$lib/client/trpc';
import type { MessageRecord, SessionRecord, SummaryRecord } from '$lib/contracts/assistant';
import type { SessionFilter } from '$lib/contracts/sessions';

const PAGE = 50;

/** The Sessions list: a filter, the pages loaded so far, and the cursor to the next one. */
export class SessionsState {
  sessions = $state<SessionRecord[]>([]);
  loaded = $state(false);
  next = $state<string | null>(null);
  filter = $state<SessionFilter>({});
  #asked = 0;

  /** The first page for the current filter; an answer overtaken by a newer one is dropped. */
  async load(): Promise<void> {
    const asked = ++this.#asked;
    this.loaded = false;
    const page = await trpc.sessions.list.query({ ...this.#query(), limit: PAGE });
    if (asked !== this.#asked) return;
    this.sessions = page.sessions;
    this.next = page.nextCursor;
    this.loaded = true;
  }

  async more(): Promise<void> {
    if (!this.next) return;
    const asked = this.#asked;
    const page = await trpc.sessions.list.query({
      ...this.#query(),
      cursor: this.next,
      limit: PAGE
    });
    if (asked !== this.#asked) return;
    // A session active meanwhile moved to the top: it is not shown twice.
    const seen = this.sessions.map((s) => s.sessionId);
    this.sessions.push(...page.sessions.filter((s) => !seen.includes(s.sessionId)));
    this.next = page.nextCursor;
  }

  #query(): SessionFilter {
    const f = this.filter;
    return {
      agent: f.agent || undefined,
      channel: f.channel?.trim() || undefined,
      search: f.search?.trim() || undefined,
      since: f.since,
      until: f.until
    };
  }
}

/** One session: its record and its transcript, newest page first loaded, older on demand. */
export class TranscriptState {
  session = $state<SessionRecord | null>(null);
  messages = $state<MessageRecord[]>([]);
  /** The summaries the loaded compacted messages stand behind, by summaryId. */
  summaries = $state<Record<string, SummaryRecord>>({});
  hasOlder = $state(false);
  loaded = $state(false);

  constructor(private readonly sessionId: string) {}

  async load(): Promise<void> {
    const page = await trpc.sessions.get.query({ sessionId: this.sessionId, limit: PAGE });
    this.session = page.session;
    this.messages = page.messages;
    this.summaries = Object.fromEntries(page.summaries.map((s) => [s.summaryId, s]));
    this.hasOlder = page.messages.length === PAGE;
    this.loaded = true;
  }

  async older(): Promise<void> {
    const first = this.messages[0];
    if (!first) return;
    const page = await trpc.sessions.get.query({
      sessionId: this.sessionId,
      before: first.messageId,
      limit: PAGE
    });
    this.messages.unshift(...page.messages);
    for (const summary of page.summaries) this.summaries[summary.summaryId] = summary;
    this.hasOlder = page.messages.length === PAGE;
  }

  async compact(): Promise<number> {
    const result = await trpc.sessions.compact.mutate({ sessionId: this.sessionId });
    await this.load();
    return result.compactedMessages;
  }

  async remove(): Promise<void> {
    await trpc.sessions.delete.mutate({ sessionId: this.sessionId });
  }
}
