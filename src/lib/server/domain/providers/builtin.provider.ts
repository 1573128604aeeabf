import {
  estimateTokens,
  ToolFailure,
  type Provider,
  type ProviderChunk,
  type ProviderRequest
} from './provider';

type ToolChunk = Extract<ProviderChunk, { type: 'tool' }>;

const HELP = [
  'I am the builtin provider: I work offline and understand a few commands.',
  '• help: this text',
  '• status: how this agent is doing',
  '• /skill <id> {json params}: run a skill, e.g. /skill echo {"message":"hi"}',
  'For real answers, configure a model under `providers:` in berth.yaml (any OpenAI-compatible endpoint) and set the agent’s provider.'
].join('\n');

/**
 * The embedded default: answers help and status, runs /skill commands, acknowledges the rest.
 * Commands are taken only from operators: external text (webhooks, system events) is
 * acknowledged as content, whatever it says.
 */
export class BuiltinProvider implements Provider {
  readonly name = 'builtin';

  async *run(request: ProviderRequest): AsyncIterable<ProviderChunk> {
    const tools: ToolChunk[] = [];
    const reply = await this.#reply(request, tools);
    // A skill it ran is recorded as a model's tool call is: the session shows it as such.
    yield* tools;
    // Streamed in word-sized pieces so clients see the same shape a model produces.
    for (const piece of reply.match(/\S+\s*|\s+/g) ?? []) {
      if (request.signal.aborted) throw new Error('cancelled');
      yield { type: 'delta', text: piece };
    }
    const prompt =
      estimateTokens(request.input) +
      request.history.reduce((n, m) => n + estimateTokens(m.content), 0);
    yield { type: 'done', text: reply, usage: { prompt, completion: estimateTokens(reply) } };
  }

  async #reply(request: ProviderRequest, tools: ToolChunk[]): Promise<string> {
    const text = request.input.trim();
    if (request.trust === 'external') return acknowledgeExternal(text);
    if (/^help$/i.test(text)) return HELP;
    if (/^status$/i.test(text))
      return `Agent ${request.agentName}: ${JSON.stringify(request.status())}`;
    const skill = /^\/skill\s+([A-Za-z0-9_.-]+)\s*([\s\S]*)$/.exec(text);
    if (skill) {
      const [, id, rawParams] = skill as unknown as [string, string, string];
      let params: Record<string, unknown> = {};
      if (rawParams.trim()) {
        try {
          const parsed: unknown = JSON.parse(rawParams);
          if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
            return `Skill ${id}: params must be a JSON object.`;
          params = parsed as Record<string, unknown>;
        } catch {
          return `Skill ${id}: params are not valid JSON.`;
        }
      }
      try {
        const output = await request.runSkill(id, params);
        tools.push({ type: 'tool', skillId: id, params, output });
        return `Skill ${id} returned: ${JSON.stringify(output)}`;
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        const details = err instanceof ToolFailure ? { details: err.details } : {};
        tools.push({ type: 'tool', skillId: id, params, error, ...details });
        return `Skill ${id} failed: ${error}`;
      }
    }
    return `Received: “${excerpt(text)}”. This agent uses the builtin provider, which answers help, status and /skill commands; configure a model provider in berth.yaml for real answers.`;
  }
}

function acknowledgeExternal(text: string): string {
  if (text.startsWith('System events:')) {
    const count = text.split('\n').filter((l) => l.startsWith('- ')).length;
    return `Noted ${count} system event${count === 1 ? '' : 's'}.`;
  }
  return `Received external content: “${excerpt(text)}”. Text from outside senders is never run as a command.`;
}

const excerpt = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}…` : text);
