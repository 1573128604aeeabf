import pino, { type Logger } from 'pino';

/** JSON logs on stdout; secrets never reach them (headers and cookies are redacted). */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
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
  });
}

export type { Logger };
