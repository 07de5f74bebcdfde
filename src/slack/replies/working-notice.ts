import { type TextMessage, textMessage } from '../../blocks/kit.js';
import { type Mrkdwn, md } from '../../blocks/mrkdwn.js';

/** A wait for the platform's rate budget longer than this is told to the person, with how long. */
export const slowMs = 3_000;

/** "Working…", and how long the platform's rate budget will make the request wait when that is noticeable. */
export function workingText(action: string, waitMs: number): Mrkdwn {
  if (waitMs < slowMs) return md`${action}…`;
  const seconds = Math.ceil(waitMs / 1000);
  const about = seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  return md`${action}… The video platform allows only a few requests a minute and is busy: this will take about ${about}. You can close this; I will post the result.`;
}

/**
 * For a door that answers later without a "Working…" of its own (a button): when the rate budget
 * will hold the request noticeably, says so privately first, with how long, so nobody waits in
 * silence. Best effort: a failure to say it must not stop the work.
 */
export async function tellIfSlow(
  respond: (
    message: { response_type: 'ephemeral'; replace_original: false } & TextMessage,
  ) => Promise<unknown>,
  action: string,
  waitMs: number,
): Promise<void> {
  if (waitMs < slowMs) return;
  await respond({
    response_type: 'ephemeral',
    replace_original: false,
    ...textMessage(workingText(action, waitMs)),
  }).catch(() => undefined);
}
