import type { IncomingMessage } from 'node:http';
import { BodyError, parseJson } from '../http/body';

const JSON_TYPE = /^application\/(?:json|[a-z0-9.+-]+\+json)$/;

/**
 * Reads a webhook's JSON body with the same rules as `readJsonBody` (415, 413, 400), except
 * that passing the limit leaves the socket open: the caller can still answer 413 (with
 * `Connection: close`) to a chunked body, which `readJsonBody`'s `req.destroy()` would cut off.
 */
export function readWebhookJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!JSON_TYPE.test(type)) {
    discardBody(req, limit);
    return Promise.reject(new BodyError(415, 'Content-Type must be application/json'));
  }
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    discardBody(req, limit);
    return Promise.reject(new BodyError(413, `Body over ${limit} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (err: Error | null) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
      if (err) {
        discardBody(req, limit);
        reject(err);
        return;
      }
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks, size));
      } catch {
        reject(new BodyError(400, 'Body is not valid UTF-8'));
        return;
      }
      try {
        resolve(parseJson(text));
      } catch (parseErr) {
        reject(parseErr instanceof Error ? parseErr : new BodyError(400, 'Body is not valid JSON'));
      }
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) settle(new BodyError(413, `Body over ${limit} bytes`));
      else chunks.push(chunk);
    };
    const onEnd = () => settle(null);
    const onError = () => settle(new BodyError(400, 'Request body could not be read'));
    const onAborted = () => settle(new BodyError(400, 'Request aborted'));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}

/** Lets a refused request's body drain (keep-alive needs it), but not an endless one. */
export function discardBody(req: IncomingMessage, limit: number): void {
  let seen = 0;
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > limit) req.socket.destroy();
  });
  req.resume();
}
