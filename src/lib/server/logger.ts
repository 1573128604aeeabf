import pino, { type Logger } from 'pino';

/**
 * JSON logs on stdout; secrets never reach them (headers and cookies are redacted). Lines are
 * written in batches of 4 KiB or every 200 ms, whichever comes first, and flushed when the
 * process exits: the access log writes one line per gateway request, and a write per line
 * cost about a quarter of a small RPC call's throughput. Up to 200 ms of lines are lost if the
 * process is killed outright (SIGKILL, out of memory); exits, crashes and SIGTERM flush them.
 */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: 4096,
    periodicFlush: 200,
    // A stalled stdout drops lines past 16 MiB instead of growing the heap without bound.
    maxLength: 16 * 1024 * 1024
  });
  return pino(
    {
      level,
      base: { app: 'berth' },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-gateway-token"]',
          '*.password',
          '*.token'
        ],
        censor: '[redacted]'
      }
    },
    destination
  );
}

export type { Logger };
