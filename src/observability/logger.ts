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

/** The structured JSON logger (pino) with secrets redacted. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    { level, base: { app: 'confdesk' }, redact: { paths: redactedPaths, censor: '[redacted]' } },
    destination,
  );
}
