import { pino } from 'pino';
import pretty from 'pino-pretty';

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

/** True for an error with a code somewhere in its chain: a known failure (platform, Slack, network, database). */
function classified(e: unknown, depth = 0): boolean {
  if (depth > 4 || e === null || typeof e !== 'object') return false;
  const x = e as { code?: unknown; cause?: unknown; original?: unknown };
  return typeof x.code === 'string' || classified(x.cause, depth + 1) || classified(x.original, depth + 1);
}

/**
 * Errors as pino writes them. Above debug level a known failure (one with a code: the platform's,
 * Slack's, a network's, the database's) is logged without its stack: its message names the fix, and
 * the stack is noise to an operator (LOG_LEVEL=debug shows it). An unclassified error, a bug, keeps
 * its stack at every level.
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
    if (!withStack && classified(err)) strip(out);
    return out;
  };
}

/**
 * `LOG_FORMAT=pretty`: the same lines, readable in a terminal (pino-pretty, in this process: no
 * worker thread), with the time and the level first and the fields after. Redaction is pino's, before it.
 */
export function prettyDestination(to?: NodeJS.WritableStream): pino.DestinationStream {
  return pretty({
    colorize: to === undefined && process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,app',
    ...(to ? { destination: to } : {}),
  });
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
