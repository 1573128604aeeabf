import type { MessageRow } from '../../db/repositories/session.repository';
import type { AgentService } from '../agents/agent.service';

/** One compaction chunk summarised: by the agent's model, or extractively (builtin). */
export type Summarizer = (
  agentName: string,
  previous: string | null,
  chunk: MessageRow[],
  signal: AbortSignal
) => Promise<{ text: string; method: 'model' | 'extractive'; model: string | null }>;

/** A summary is kept at most this long, whoever wrote it. */
const SUMMARY_MAX = 4000;
/** Each message is cut to this much in a summarisation request, so one chunk stays bounded. */
const MESSAGE_MAX = 2000;

const INSTRUCTIONS =
  'You summarise a conversation for your own later use. Keep facts, decisions, names, numbers, open questions and commitments; drop pleasantries. Write at most 300 words of plain prose. Fold the earlier summary, when given, into the new one.';

/**
 * The agent's own provider summarises: a model endpoint gets one request without tools; the
 * builtin (offline) makes an extractive summary: who said what, the first line of each.
 */
export function agentSummarizer(agents: AgentService): Summarizer {
  return async (agentName, previous, chunk, signal) => {
    const agent = agents.find(agentName);
    if (!agent || agent.provider === 'builtin')
      return { text: extractive(previous, chunk), method: 'extractive', model: null };
    const provider = agents.provider(agent);
    let text = '';
    for await (const piece of provider.run({
      agentName,
      model: agent.model ?? null,
      systemPrompt: INSTRUCTIONS,
      history: previous
        ? [{ role: 'system', content: `Earlier summary: ${previous}`, trust: 'operator' }]
        : [],
      input: `Summarise these messages:\n${chunk
        .map((m) => `${m.role}: ${m.content.slice(0, MESSAGE_MAX)}`)
        .join('\n')}`,
      // The messages quote outside senders too: content to summarise, never instructions.
      trust: 'external',
      skills: [],
      runSkill: () => Promise.reject(new Error('no tools while summarising')),
      status: () => ({}),
      signal
    }))
      if (piece.type === 'done') text = piece.text.trim();
    if (!text) throw new Error(`provider ${agent.provider} returned an empty summary`);
    return { text: bounded(text), method: 'model', model: agent.model ?? null };
  };
}

/** The offline summary: the earlier one, then who said what, first line of each. */
export function extractive(previous: string | null, chunk: MessageRow[]): string {
  const lines = chunk.map((m) => `${m.role}: ${(m.content.split('\n')[0] ?? '').slice(0, 120)}`);
  return bounded([previous, ...lines].filter(Boolean).join('\n'));
}

function bounded(text: string): string {
  return text.length > SUMMARY_MAX ? `…${text.slice(-SUMMARY_MAX)}` : text;
}
