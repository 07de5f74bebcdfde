import { LogLevel, type Logger as SlackLogger } from '@slack/bolt';
import type { Logger } from './logger.js';

/** Bolt's logger interface over pino, so Bolt's own lines are structured and redacted like ours. */
export function boltLogger(base: Logger): SlackLogger {
  let logger = base.child({ component: 'bolt' });
  const text = (msgs: unknown[]) =>
    msgs.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join(' ');
  return {
    debug: (...msgs) => logger.debug(text(msgs)),
    info: (...msgs) => logger.info(text(msgs)),
    warn: (...msgs) => logger.warn(text(msgs)),
    error: (...msgs) => logger.error(text(msgs)),
    // The level is pino's, set from LOG_LEVEL; Bolt asking for another one is ignored on purpose.
    setLevel: () => {},
    getLevel: () => (logger.isLevelEnabled('debug') ? LogLevel.DEBUG : LogLevel.INFO),
    setName: (name: string) => {
      logger = base.child({ component: name });
    },
  };
}
