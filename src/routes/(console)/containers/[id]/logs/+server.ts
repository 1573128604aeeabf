import { error } from '@sveltejs/kit';
import type { Readable } from 'node:stream';
import { containerIdSchema, engineNameSchema } from '$lib/contracts/engine';
import { toDomainError } from '$lib/server/errors';
import { demuxLines } from '$lib/server/engine/stream-demux';
import { getApp } from '$lib/server/runtime';
import type { RequestHandler } from './$types';

const STATUS = {
  NOT_FOUND: 404,
  CONFLICT: 409,
  INVALID: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  RATE_LIMITED: 429,
  ENGINE_UNAVAILABLE: 503,
  UNAVAILABLE: 503
} as const;

/**
 * Everything the engine holds of a container's logs, as text: one line per log line,
 * `<time> <stdout|stderr> <line>` (`?timestamps=0` leaves out the time). Demultiplexed and
 * streamed as the engine sends it, a line at a time through the demuxer, so a large log never
 * sits in memory; the request to the engine ends when the browser stops reading. The route
 * guard already needs a viewer for /containers; the domain checks the role again.
 */
export const GET: RequestHandler = async ({ params, url, locals }) => {
  const user = locals.user;
  if (!user) error(401, 'Sign in first');
  const id = containerIdSchema.safeParse(params.id);
  const engine = engineNameSchema.safeParse(url.searchParams.get('engine') ?? undefined);
  if (!id.success || !engine.success) error(400, 'not a valid container or engine name');
  const timestamps = url.searchParams.get('timestamps') !== '0';

  let source: Readable;
  try {
    source = await getApp().engineServices.containers.logs(
      { id: user.id, email: user.email, ip: locals.clientIp, role: user.role },
      {
        engine: engine.data,
        id: id.data,
        stdout: true,
        stderr: true,
        follow: false,
        tail: 'all',
        timestamps: true
      }
    );
  } catch (err) {
    const domain = toDomainError(err);
    if (!domain) throw err;
    error(STATUS[domain.code], domain.message);
  }

  const lines = demuxLines(source, { timestamps: true });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    // One engine chunk per pull: the browser's reading paces the engine's sending.
    async pull(controller) {
      try {
        const next = await lines.next();
        if (next.done) return controller.close();
        let text = '';
        for (const l of next.value)
          text += `${timestamps && l.ts ? `${l.ts} ` : ''}${l.stream} ${l.line}\n`;
        controller.enqueue(encoder.encode(text));
      } catch (err) {
        controller.error(err);
      }
    },
    cancel() {
      source.destroy();
    }
  });
  const file = `${id.data}-logs.txt`;
  return new Response(body, {
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': `attachment; filename="${file}"`,
      'cache-control': 'no-store'
    }
  });
};
