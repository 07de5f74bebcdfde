import { LogLevel, type Logger as SlackLogger } from '@slack/bolt';
import type { Logger } from './logger.js';

type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * Bolt writes request bodies as JSON text, where pino's key redaction cannot reach: the value under
 * any key naming a password, a token or a secret (a create-user form's `user_password` input state,
 * the workspace settings' `platform_token` and `platform_password`, a `password` field)
 * is replaced in the text itself — a string, or an object up to three levels deep (an input’s state).
 */
const jsonString = String.raw`"(?:[^"\\]|\\.)*"`;
const objectOf = (inner: string) => String.raw`\{(?:${jsonString}|[^{}"]|${inner})*\}`;
const jsonObject = objectOf(objectOf(objectOf('(?!)')));
const secretInText = new RegExp(
  String.raw`("[A-Za-z_]*(?:password|token|secret)"\s*:\s*)(${jsonString}|${jsonObject})`,
  'gi',
);

/** Bolt's text with every password, token and secret value replaced. */
export const scrubSecrets = (text: string): string => text.replace(secretInText, '$1"[redacted]"');

/** Bolt's logger interface over pino, so Bolt's own lines are structured and redacted like ours. */
export function boltLogger(base: Logger): SlackLogger {
  let logger = base.child({ component: 'bolt' });
  // Bolt logs whole request bodies at debug: build the text only when the level is on.
  const log =
    (level: Level) =>
    (...msgs: unknown[]) => {
      if (!logger.isLevelEnabled(level)) return;
      logger[level](scrubSecrets(msgs.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join(' ')));
    };
  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    // The level is pino's, set from LOG_LEVEL; Bolt asking for another one is ignored on purpose.
    setLevel: () => {},
    getLevel: () =>
      logger.isLevelEnabled('debug')
        ? LogLevel.DEBUG
        : logger.isLevelEnabled('info')
          ? LogLevel.INFO
          : logger.isLevelEnabled('warn')
            ? LogLevel.WARN
            : LogLevel.ERROR,
    setName: (name: string) => {
      logger = base.child({ component: name });
    },
  };
}
