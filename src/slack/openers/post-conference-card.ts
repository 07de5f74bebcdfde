import type { ConferenceSummary } from '../../domain/conference.js';
import { isCannotPost } from '../../util/slack-errors.js';
import type { ConferenceDeps } from '../deps.js';

/** Posts the card in the channel; false when the bot may not post there (the caller says how to fix it). */
export async function postConferenceCard(
  deps: Pick<ConferenceDeps, 'publisher'>,
  channel: string,
  c: ConferenceSummary,
) {
  try {
    await deps.publisher.postConferenceCard(channel, c);
    return true;
  } catch (error) {
    if (isCannotPost(error)) return false;
    throw error;
  }
}
