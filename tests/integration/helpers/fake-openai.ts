/**
 * A small server that speaks the OpenAI Chat Completions wire protocol on 127.0.0.1, for the
 * provider suites: each POST /chat/completions takes the next scripted answer (a stream of
 * chunks, a status, or silence), and every request is recorded with when it came and when
 * its connection closed. GET /models lists `models`.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Answer =
  /** SSE chunks (each sent as one `data:` event, `delayMs` apart), then `data: [DONE]`. */
  | { kind: 'stream'; chunks: object[]; delayMs?: number }
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: object }
  /** Answers nothing: the client's time-out or cancellation has to end it. */
  | { kind: 'silent' };

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | null;
  at: number;
  /** When the client closed the connection before the answer ended (abort, time-out). */
  closedAt: number | null;
}

export interface FakeOpenAi {
  url: string;
  requests: SeenRequest[];
  /** Answers for the next chat requests, in order; an empty script answers 500. */
  script(...answers: Answer[]): void;
  models: string[];
  close(): Promise<void>;
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const queue: Answer[] = [];
  const requests: SeenRequest[] = [];
  const fake = { models: ['fake-small', 'fake-large'] } as FakeOpenAi;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: raw ? (JSON.parse(raw) as Record<string, unknown>) : null,
        at: Date.now(),
        closedAt: null
      };
      requests.push(seen);
      res.on('close', () => {
        if (!res.writableFinished) seen.closedAt = Date.now();
      });
      if (req.method === 'GET' && req.url?.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            data: fake.models.map((id) => ({ id, object: 'model', owned_by: 'fake' }))
          })
        );
        return;
      }
      const answer = queue.shift() ?? {
        kind: 'status',
        status: 500,
        body: { error: { message: 'nothing scripted' } }
      };
      if (answer.kind === 'silent') return;
      if (answer.kind === 'status') {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.body ?? { error: { message: `status ${answer.status}` } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const events = [...answer.chunks.map((c) => JSON.stringify(c)), '[DONE]'];
      const next = () => {
        if (res.destroyed) return;
        const event = events.shift();
        if (event === undefined) return void res.end();
        res.write(`data: ${event}\n\n`);
        setTimeout(next, answer.delayMs ?? 0);
      };
      next();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...answers: Answer[]) => void queue.push(...answers),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    }
  });
}

const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'fake' };

/** A text answer in the given pieces, with a usage chunk last (as include_usage asks). */
export function textAnswer(
  pieces: string[],
  usage = { prompt_tokens: 11, completion_tokens: 7 }
): Answer {
  return {
    kind: 'stream',
    chunks: [
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] },
      ...pieces.map((content) => ({ ...base, choices: [{ index: 0, delta: { content } }] })),
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { ...base, choices: [], usage: { ...usage, total_tokens: 0 } }
    ]
  };
}

/**
 * Tool calls as models stream them: per call an id and name first, then its arguments' JSON
 * cut into three pieces, the calls' pieces interleaved by index; usage last.
 */
export function toolCallAnswer(
  calls: { name: string; arguments: object }[],
  usage = { prompt_tokens: 20, completion_tokens: 5 }
): Answer {
  const chunks: object[] = [];
  const delta = (tool_calls: object[]) => ({
    ...base,
    choices: [{ index: 0, delta: { tool_calls } }]
  });
  calls.forEach((call, index) =>
    chunks.push(
      delta([
        {
          index,
          id: `call_${index}`,
          type: 'function',
          function: { name: call.name, arguments: '' }
        }
      ])
    )
  );
  const parts = calls.map((call) => {
    const json = JSON.stringify(call.arguments);
    const third = Math.ceil(json.length / 3);
    return [json.slice(0, third), json.slice(third, 2 * third), json.slice(2 * third)];
  });
  for (let piece = 0; piece < 3; piece++)
    parts.forEach((p, index) => chunks.push(delta([{ index, function: { arguments: p[piece] } }])));
  chunks.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
  chunks.push({ ...base, choices: [], usage: { ...usage, total_tokens: 0 } });
  return { kind: 'stream', chunks };
}
