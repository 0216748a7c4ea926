import pino, { type Logger } from 'pino';

/** Writes out whatever an asynchronous destination still holds. */
export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}

/** Structured JSON logs. Authorization headers and anything key-like are redacted wherever they appear. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'key', '*.key', 'secret'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
