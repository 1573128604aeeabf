import type { UsageFilter, UsageRepository } from '../../db/repositories/usage.repository';
import { unlessUnavailable } from '../storage-retry';

type Totals = { messages: number; turns: number; tokens: { prompt: number; completion: number } };

const empty = (): Totals => ({ messages: 0, turns: 0, tokens: { prompt: 0, completion: 0 } });
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * usage.stats: messages, turns and tokens by agent, day, credential and session from the
 * stored records, plus the
 * request counters of the three interfaces (kept in memory, written every few seconds).
 */
export class UsageService {
  #pending = new Map<
    string,
    { day: string; iface: string; route: string; status: number; token: string; count: number }
  >();
  #timer: NodeJS.Timeout;

  constructor(
    private readonly repo: UsageRepository,
    flushEveryMs = 5_000
  ) {
    this.#timer = setInterval(() => this.flush(), flushEveryMs).unref();
  }

  #today = { day: '', until: 0 };

  countRequest(iface: string, route: string, status: number, token: string | null): void {
    const now = Date.now();
    // The day string is worked out once a day, not on every request.
    if (now >= this.#today.until) {
      const midnight = new Date(now).setUTCHours(24, 0, 0, 0);
      this.#today = { day: day(now), until: midnight };
    }
    const today = this.#today.day;
    const key = `${today}|${iface}|${route}|${status}|${token ?? ''}`;
    const entry = this.#pending.get(key);
    if (entry) entry.count++;
    else this.#pending.set(key, { day: today, iface, route, status, token: token ?? '', count: 1 });
  }

  /** Writes the counters; while storage refuses them (locked, full) they wait for the next flush. */
  flush(): void {
    if (!this.#pending.size) return;
    const rows = [...this.#pending.values()];
    if (unlessUnavailable(() => this.repo.addRequests(rows))) this.#pending = new Map();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.flush();
  }

  stats(filter: UsageFilter) {
    this.flush();
    const total = empty();
    const byAgent: Record<string, Totals> = {};
    const byDay = new Map<string, Totals & { day: string }>();
    const at = (agent: string, d: string) => {
      byAgent[agent] ??= empty();
      if (!byDay.has(d)) byDay.set(d, { day: d, ...empty() });
      return [byAgent[agent], byDay.get(d)!] as const;
    };
    for (const row of this.repo.turnsByAgentDay(filter)) {
      for (const t of [total, ...at(row.agentName, row.day)]) {
        t.turns += row.turns;
        t.tokens.prompt += row.prompt;
        t.tokens.completion += row.completion;
      }
    }
    for (const row of this.repo.messagesByAgentDay(filter))
      for (const t of [total, ...at(row.agentName, row.day)]) t.messages += row.messages;
    const totals = (r: {
      turns: number;
      prompt: number;
      completion: number;
      messages: number;
    }) => ({
      messages: r.messages,
      turns: r.turns,
      tokens: { prompt: r.prompt, completion: r.completion }
    });
    const byCredential: Record<string, Totals> = {};
    for (const row of this.repo.byCredential(filter)) byCredential[row.credential] = totals(row);
    const bySession = this.repo
      .bySession(filter)
      .map((row) => ({ sessionId: row.sessionId, agentName: row.agentName, ...totals(row) }));
    const requests = this.repo.requests({
      sinceDay: filter.since !== undefined ? day(filter.since) : undefined,
      untilDay: filter.until !== undefined ? day(filter.until + 86_400_000) : undefined
    });
    return {
      ...total,
      byAgent,
      byDay: [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day)),
      byCredential,
      bySession,
      requests: requests.map((r) => ({
        interface: r.iface,
        route: r.route,
        status: r.status,
        token: r.token || null,
        count: r.count
      }))
    };
  }
}
