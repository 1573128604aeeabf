import { z } from 'zod';

/** The Usage page's range: epoch ms of the first and last day (UTC days, as usage.stats counts). */
export const usageStatsInput = z.object({
  since: z.number().int().nonnegative().optional(),
  until: z.number().int().nonnegative().optional(),
  agent: z.string().trim().min(1).max(64).optional(),
  session: z.string().trim().min(1).max(200).optional(),
  credential: z.string().trim().min(1).max(200).optional()
});

export interface UsageTotals {
  messages: number;
  turns: number;
  tokens: { prompt: number; completion: number };
}

export interface UsageStats extends UsageTotals {
  byAgent: Record<string, UsageTotals>;
  byDay: (UsageTotals & { day: string })[];
  /** By what caused the turns (`apikey:<name>`, `token:<name>`, `console:<email>` …). */
  byCredential: Record<string, UsageTotals>;
  /** The sessions with the most tokens, most first. */
  bySession: (UsageTotals & { sessionId: string; agentName: string })[];
  requests: {
    interface: string;
    route: string;
    status: number;
    token: string | null;
    count: number;
  }[];
}

export type UsageMetric = 'messages' | 'turns' | 'tokens';

export function metricOf(totals: UsageTotals, metric: UsageMetric): number {
  return metric === 'tokens' ? totals.tokens.prompt + totals.tokens.completion : totals[metric];
}

/** Every UTC day from `since` to `until` (inclusive) as `yyyy-mm-dd`, so empty days show too. */
export function daysBetween(since: number, until: number, max = 366): string[] {
  const days: string[] = [];
  const start = Date.UTC(
    new Date(since).getUTCFullYear(),
    new Date(since).getUTCMonth(),
    new Date(since).getUTCDate()
  );
  for (let t = start; t <= until && days.length < max; t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}
