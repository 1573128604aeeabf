import type { SessionRepository } from '../../db/repositories/session.repository';
import type { TurnRepository, TurnRow } from '../../db/repositories/turn.repository';
import { storageFault } from '../../db/storage-fault';
import type { AgentService } from '../agents/agent.service';
import type { DomainBus } from '../bus';
import { ToolFailure, type ProviderChunk, type ProviderRequest } from '../providers/provider';
import type { OutboundService } from '../outbound/outbound.service';
import { SkillRunFailed, type SkillService } from '../skills/skill.service';
import { failureDetails } from '../skills/skill-views';
import { whenStored } from '../storage-retry';
import { toRecord, turnInput } from './turn.record';

const HISTORY_LIMIT = 40;

/**
 * How a run ended: `done` (completed or failed, committed), `requeued` (storage failed it
 * before a reply: the turn is queued again and its claim should wait), `stopped` (the signal
 * ended it; the turn stays `running` for recovery at the next start).
 */
export type RunOutcome = 'done' | 'requeued' | 'stopped';

/** The abort reason of a turn cancelled on request (not by a stop): it ends `cancelled`. */
export class TurnCancel extends Error {
  constructor(readonly by: string) {
    super(`cancelled by ${by}`);
  }
}

type ToolRecord = Extract<ProviderChunk, { type: 'tool' }>;

/**
 * Work that commits with a completed turn (a heartbeat's events are done with it); what it
 * returns runs once that commit has been made.
 */
export type CompletionHook = (turn: TurnRow, now: number) => (() => void) | undefined;

/**
 * Runs one claimed turn: the session's history (after its summary, each message with its
 * trust), the skills offered, the agent's provider streaming deltas onto the bus, then the
 * commit of the reply. The scheduler (TurnService) decides what runs when; the signal is
 * aborted only when it stops.
 */
export class TurnRunner {
  readonly #onComplete: CompletionHook[] = [];

  constructor(
    private readonly turns: TurnRepository,
    private readonly sessions: SessionRepository,
    private readonly agents: AgentService,
    private readonly skills: SkillService,
    private readonly bus: DomainBus,
    private readonly outbound: Pick<OutboundService, 'queue' | 'kick'>
  ) {}

  onComplete(hook: CompletionHook): void {
    this.#onComplete.push(hook);
  }

  async run(row: TurnRow, signal: AbortSignal): Promise<RunOutcome> {
    // A write that ends a turn, tried until storage takes it; the turn stays running meanwhile.
    const stored = <T>(write: () => T) => whenStored(write, () => signal.aborted);
    try {
      const agent = this.agents.require(row.agentName);
      const provider = this.agents.provider(agent);
      const session = this.sessions.brief(row.sessionId);
      const history: ProviderRequest['history'] = this.sessions
        .history(row.sessionId, HISTORY_LIMIT)
        .filter((m) => m.id !== row.messageId)
        .map((m) => ({ role: m.role, content: m.content, trust: m.trust }));
      if (session?.summary)
        history.unshift({
          role: 'system',
          content: `Summary of earlier messages: ${session.summary}`,
          trust: 'operator'
        });
      const offered = this.#offeredSkills(agent.skills, row.context);
      let reply = '';
      let usage = { prompt: 0, completion: 0 };
      const tools: ToolRecord[] = [];
      for await (const chunk of provider.run({
        agentName: agent.name,
        model: row.model ?? agent.model ?? null,
        systemPrompt: agent.systemPrompt ?? null,
        history,
        input: turnInput(row, this.sessions),
        trust: row.trust,
        skills: offered,
        runSkill: async (id, params) => {
          if (!offered.some((skill) => skill.id === id))
            throw new Error(`skill ${id} is not offered to this turn`);
          try {
            const run = await this.skills.trigger(
              id,
              params,
              { trigger: `turn:${row.id}`, actor: agent.name },
              signal
            );
            return run.output;
          } catch (err) {
            if (err instanceof SkillRunFailed)
              throw new ToolFailure(err.message, failureDetails(err.run));
            throw err;
          }
        },
        status: () => this.agents.status(agent.name),
        signal
      })) {
        if (chunk.type === 'delta')
          this.bus.emit('message.delta', {
            turnId: row.id,
            sessionId: row.sessionId,
            agentName: row.agentName,
            text: chunk.text
          });
        else if (chunk.type === 'tool') tools.push(chunk);
        else {
          reply = chunk.text;
          usage = chunk.usage;
        }
      }
      if (signal.aborted) return this.#aborted(row, signal);
      // Only the commit is retried: what follows it is told once.
      const tell = await stored(() => this.#complete(row, reply, usage, tools));
      tell?.();
      return signal.aborted ? 'stopped' : 'done';
    } catch (err) {
      if (signal.aborted) return this.#aborted(row, signal);
      if (storageFault(err)) {
        // Storage failed the run before it had a reply (its history could not be read): the
        // turn goes back to the queue rather than failing for a passing fault.
        const queued = await stored(() =>
          this.turns.finish(row.id, { state: 'queued', startedAt: null })
        );
        if (!queued) return 'stopped';
        this.bus.emit('turn.changed', toRecord(queued));
        return 'requeued';
      }
      const error = err instanceof Error ? err.message : String(err);
      const failed = await stored(() =>
        this.turns.atomically(() => {
          const finishedAt = Date.now();
          const done = this.turns.finish(row.id, { state: 'failed', error, finishedAt });
          if (done && row.delivery === 'announce')
            this.outbound.queue({
              turnId: row.id,
              agentName: row.agentName,
              sessionId: row.sessionId,
              state: 'failed',
              result: null,
              error,
              usage: { prompt: 0, completion: 0 },
              finishedAt
            });
          return done;
        })
      );
      if (failed) {
        if (row.delivery === 'announce') this.outbound.kick();
        this.bus.emit('turn.changed', toRecord(failed));
      }
      return 'done';
    }
  }

  /** Stopped (the turn stays running for recovery), or cancelled on request (recorded). */
  #aborted(row: TurnRow, signal: AbortSignal): RunOutcome {
    if (!(signal.reason instanceof TurnCancel)) return 'stopped';
    try {
      const cancelled = this.turns.finish(row.id, {
        state: 'cancelled',
        error: signal.reason.message,
        finishedAt: Date.now()
      });
      if (cancelled) this.bus.emit('turn.changed', toRecord(cancelled));
      return 'done';
    } catch {
      // Storage refused the record: the turn stays running, for recovery at the next start.
      return 'stopped';
    }
  }

  /** The agent's allowed skills (all when it lists none), narrowed by a request's skill_ids. */
  #offeredSkills(allowed: string[], context: Record<string, unknown> | null) {
    const requested = Array.isArray(context?.skillIds) ? (context.skillIds as unknown[]) : [];
    return this.skills
      .list()
      .filter((s) => allowed.length === 0 || allowed.includes(s.id))
      .filter((s) => requested.length === 0 || requested.includes(s.id));
  }

  /**
   * The reply, its announcement and the `completed` state commit together, so a retry after a
   * refused commit cannot post the reply twice; subscribers hear of them once committed.
   */
  #complete(
    row: TurnRow,
    reply: string,
    usage: { prompt: number; completion: number },
    tools: ToolRecord[]
  ): () => void {
    const now = Date.now();
    const { messages, done, after } = this.turns.atomically(() => {
      // The tool calls the model made, in order, before its reply: `{skill, params}` and what
      // the model got back (`output`, or `error` and any details).
      const posted = tools.map((tool) =>
        this.sessions.appendMessage(row.sessionId, {
          id: crypto.randomUUID(),
          role: 'tool',
          content: JSON.stringify({
            skill: tool.skillId,
            params: tool.params,
            ...(tool.error === undefined
              ? { output: tool.output }
              : { error: tool.error, ...tool.details })
          }),
          turnId: row.id,
          channel: row.channel,
          createdAt: now
        })
      );
      posted.push(
        this.sessions.appendMessage(row.sessionId, {
          id: crypto.randomUUID(),
          role: 'assistant',
          content: reply,
          turnId: row.id,
          channel: row.channel,
          tokens: usage.completion,
          createdAt: now
        })
      );
      if (row.delivery === 'announce') {
        const announced = this.#announce(row, reply, now);
        if (announced) posted.push(announced);
        // The outbound webhooks' messages join the same commit: never a turn without them.
        this.outbound.queue({
          turnId: row.id,
          agentName: row.agentName,
          sessionId: row.sessionId,
          state: 'completed',
          result: reply,
          error: null,
          usage,
          finishedAt: now
        });
      }
      const finished = this.turns.finish(row.id, {
        state: 'completed',
        result: reply,
        promptTokens: usage.prompt,
        completionTokens: usage.completion,
        finishedAt: now
      });
      const after = finished ? this.#onComplete.map((hook) => hook(finished, now)) : [];
      return { messages: posted, done: finished, after };
    });
    return () => {
      for (const message of messages)
        this.bus.emit('message.created', {
          sessionId: message.sessionId,
          agentName: row.agentName,
          messageId: message.id,
          turnId: row.id,
          role: message.role,
          content: message.content,
          userId: null
        });
      if (row.delivery === 'announce') this.outbound.kick();
      for (const then of after) then?.();
      // Last, so whoever sees `completed` also sees the reply and its announcement.
      if (done) this.bus.emit('turn.changed', toRecord(done));
    };
  }

  /** Delivery `announce`: the result is posted to the agent's main session too. */
  #announce(row: TurnRow, reply: string, now: number) {
    const main = this.sessions.getOrCreate(row.agentName, 'main', now);
    if (main.id === row.sessionId) return null;
    return this.sessions.appendMessage(main.id, {
      id: crypto.randomUUID(),
      role: 'assistant',
      content: reply,
      turnId: row.id,
      channel: 'announce',
      createdAt: now
    });
  }
}
