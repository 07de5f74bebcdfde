import type { Locale } from '../i18n/locale.js';
import { type TextMessage, textMessage } from './kit.js';
import { channelLink } from './mrkdwn.js';
import { t } from './text.js';

/**
 * A private notice the background jobs send a person once: to a channel's subscribers when delivery
 * sets a message aside or the channel stops taking them, to a digest's owner when the digest cannot
 * be posted or is paused. `reason`: Slack's error code, shown as code. The jobs hand it to the
 * publisher (`outbound/`), which renders it here: jobs/ never import blocks/.
 */
export type JobNotice =
  | {
      kind: 'set-aside';
      channel: string;
      what: 'card' | 'broadcast' | 'event';
      reason: string;
      /** Who can fix it: a setting of the channel or workspace, or the confdesk operator. */
      fix: 'channel' | 'operator';
    }
  | { kind: 'parked'; channel: string; reason: string }
  | { kind: 'digest-refused'; channel: string; reason: string }
  | { kind: 'digest-paused'; channel: string };

/** The sentence of a job's notice (a direct message to the person), in `locale` (the person's language). */
export function buildJobNotice(locale: Locale, n: JobNotice): TextMessage {
  const where = channelLink(n.channel);
  switch (n.kind) {
    case 'set-aside': {
      const help =
        n.fix === 'channel'
          ? t(locale, 'jobNotice.fixChannel', { where })
          : t(locale, 'jobNotice.fixOperator');
      return textMessage(t(locale, 'jobNotice.setAside', { what: n.what, where, reason: n.reason, help }));
    }
    case 'parked':
      return textMessage(t(locale, 'jobNotice.parked', { where, reason: n.reason }));
    case 'digest-refused':
      return textMessage(t(locale, 'jobNotice.digestRefused', { where, reason: n.reason }));
    case 'digest-paused':
      return textMessage(t(locale, 'jobNotice.digestPaused', { where }));
  }
}
