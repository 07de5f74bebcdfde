import type { ModalView } from '@slack/types';
import type { Locale } from '../i18n/locale.js';
import { ids } from './ids.js';
import { type Block, plain, section } from './kit.js';
import { limits } from './limits.js';
import { type Mrkdwn, md } from './mrkdwn.js';
import { tPlain } from './text.js';

/* The generic modals every form shares: "working" while the platform answers, and the outcome. */

/** The modal while the platform works, saying how long the rate budget will make it wait. */
export function buildWorkingView(locale: Locale, title: string, message: Mrkdwn): ModalView {
  return {
    type: 'modal',
    callback_id: ids.views.working,
    title: plain(title, limits.viewTitle),
    close: plain(tPlain(locale, 'modal.close'), limits.viewButton),
    blocks: [section(md`:hourglass_flowing_sand: ${message}`)],
  };
}

/** A closing modal: the outcome and, when the card could not be posted, the card's details (no buttons). */
export function buildResultView(
  locale: Locale,
  title: string,
  message: Mrkdwn,
  extra: Block[] = [],
): ModalView {
  const shown = extra.filter((b) => b.type !== 'actions');
  return {
    type: 'modal',
    callback_id: ids.views.working,
    title: plain(title, limits.viewTitle),
    close: plain(tPlain(locale, 'modal.done'), limits.viewButton),
    blocks: [section(message), ...shown].slice(0, limits.viewBlocks),
  };
}
