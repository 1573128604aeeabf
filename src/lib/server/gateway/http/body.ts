import type { IncomingMessage } from 'node:http';

export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string
  ) {
    super(message);
  }
}

/** Nesting deeper than this is refused: parsing is cheap, walking hostile depth is not. */
export const MAX_JSON_DEPTH = 32;

/**
 * Reads a JSON request body: 415 unless the content type is JSON, 413 as soon as it passes
 * `limit` (without reading the rest), 400 for bad UTF-8 or JSON or nesting over `maxDepth`.
 */
export async function readJsonBody(
  req: IncomingMessage,
  limit: number,
  maxDepth = MAX_JSON_DEPTH
): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    req.resume();
    throw new BodyError(415, 'Content-Type must be application/json');
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) {
    req.resume();
    throw new BodyError(413, `body over ${limit} bytes`);
  }
  const raw = await collect(req, limit);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new BodyError(400, 'body is not valid UTF-8');
  }
  return parseJson(text, maxDepth);
}

export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (depthExceeds(text, maxDepth))
    throw new BodyError(400, `JSON nested deeper than ${maxDepth} levels`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BodyError(400, 'body is not valid JSON');
  }
}

/** Counts bracket depth outside strings, before JSON.parse builds anything. */
export function depthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > maxDepth) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/**
 * Gathers the body. Past `limit` it stops keeping data and rejects with 413 at once; the rest
 * is drained (not reset) so the client reads the answer, which closes the connection.
 */
function collect(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      cleanup();
      req.resume();
      reject(new BodyError(413, `body over ${limit} bytes`));
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
