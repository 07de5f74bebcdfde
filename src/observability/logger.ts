import { pino } from 'pino';

/** Fields that may carry secrets, wherever they appear in a log object; their values are replaced. */
export const redactedPaths = [
  'token',
  'password',
  'secret',
  'authorization',
  'access_token',
  'credentials',
  '*.token',
  '*.password',
  '*.secret',
  '*.authorization',
  '*.access_token',
  '*.credentials',
  'headers.authorization',
  '*.headers.authorization',
];

export type Logger = pino.Logger;

/**
 * Errors as pino writes them, without the stack above debug level: an operator reads the message
 * (which names the fix); a developer sets LOG_LEVEL=debug for the stack.
 */
function errSerializer(level: string) {
  const withStack = level === 'debug' || level === 'trace';
  const strip = (o: unknown, depth = 0): void => {
    if (depth > 4 || o === null || typeof o !== 'object') return;
    const e = o as { stack?: string; cause?: unknown; aggregateErrors?: unknown[] };
    delete e.stack;
    strip(e.cause, depth + 1);
    for (const x of e.aggregateErrors ?? []) strip(x, depth + 1);
  };
  return (err: Error) => {
    const out = pino.stdSerializers.err(err);
    if (!withStack) strip(out);
    return out;
  };
}

/** The structured JSON logger (pino) with secrets redacted. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { app: 'confdesk' },
      redact: { paths: redactedPaths, censor: '[redacted]' },
      serializers: { err: errSerializer(level) },
    },
    destination,
  );
}
