import type { Button, MrkdwnElement } from '@slack/types';
import type { ConferenceSummary } from '../domain/conference.js';
import { formatMinutes } from './format.js';
import { ids } from './ids.js';
import {
  type Block,
  button,
  confirmDialog,
  context,
  type MessagePayload as Message,
  message,
  mrkdwn,
  plain,
  section,
} from './kit.js';
import { limits } from './limits.js';
import { clipMd, clipPlain, date, empty, escaped, joinMd, type Mrkdwn, md, mention } from './mrkdwn.js';

/** Participants as one line, cut to fit a field, with how many were left out. */
export function participantsLine(list: string[], max: number = limits.fieldText): Mrkdwn {
  if (list.length === 0) return md`_none_`;
  const shown: Mrkdwn[] = [];
  let length = 0;
  for (const p of list) {
    const item = escaped(p);
    if (length + item.text.length + 2 > max - 20) break;
    shown.push(item);
    length += item.text.length + 2;
  }
  const more = list.length - shown.length;
  return more > 0 ? md`${joinMd(shown, ', ')} and ${more} more` : joinMd(shown, ', ');
}

export const whenText = (c: ConferenceSummary): Mrkdwn =>
  c.start ? date(c.start, '{date_long_pretty} at {time}') : md`_starts when the first person joins_`;

function participantsField(list: string[]): MrkdwnElement {
  const title = md`*Participants (${list.length})*\n`;
  return mrkdwn(
    md`${title}${participantsLine(list, limits.fieldText - title.text.length)}`,
    limits.fieldText,
  );
}

/** The fields every conference view shares: when, duration, moderator, participants. */
function detailFields(c: ConferenceSummary): Block {
  return {
    type: 'section',
    fields: [
      mrkdwn(md`*When*\n${whenText(c)}`, limits.fieldText),
      mrkdwn(md`*Duration*\n${c.duration ? formatMinutes(c.duration) : md`_not set_`}`, limits.fieldText),
      mrkdwn(
        md`*Moderator*\n${c.moderator ? clipPlain(c.moderator.label, 200) : md`_not set_`}`,
        limits.fieldText,
      ),
      mrkdwn(md`*Status*\n${c.status ?? md`_unknown_`}`, limits.fieldText),
      participantsField(c.participants),
    ],
  };
}

const fallback = (c: ConferenceSummary) =>
  md`Conference “${clipPlain(c.name, 300)}”${c.start ? ` on ${c.start.toISOString().slice(0, 16).replace('T', ' ')} UTC` : empty}`;

/**
 * The conference card posted in a channel: details in each viewer's zone, Join (when the platform
 * gives a link), recordings & snapshots, Edit and Delete (Delete asks for confirmation first).
 */
export function buildConferenceCard(c: ConferenceSummary): Message {
  return message(fallback(c), [
    { type: 'header', text: plain(`📹 ${c.name}`, limits.headerText) },
    detailFields(c),
    { type: 'actions', block_id: `conference_${c.id}`, elements: conferenceButtons(c) },
    context(md`Conference ${c.id}${c.roomName ? md` · room \`${c.roomName}\`` : empty}`),
  ]);
}

/** The card's buttons: Join (with a link), Recordings & snapshots, Edit, Delete (which asks first). */
export function conferenceButtons(c: ConferenceSummary): Button[] {
  const actions: Button[] = [];
  // The link itself is given on a click, privately, to those who may join: a channel sees no secret.
  if (c.joinUrl) actions.push(button('Join', ids.actions.conferenceJoin, { style: 'primary', value: c.id }));
  actions.push(
    button('Recordings & snapshots', ids.actions.conferenceMedia, { value: c.id }),
    button('Edit', ids.actions.conferenceEdit, { value: c.id }),
    button('Delete', ids.actions.conferenceDelete, {
      value: c.id,
      style: 'danger',
      confirm: confirmDialog({
        title: 'Delete this conference?',
        text: md`“${clipPlain(c.name, 100)}” will be removed from the video platform for everyone. This cannot be undone.`,
        confirm: 'Delete',
        deny: 'Keep it',
        danger: true,
      }),
    }),
  );
  return actions;
}

/** What the card becomes once the conference is deleted: it stays in the channel's history, without buttons. */
export function buildDeletedCard(c: { id: string; name: string }, byUserId: string): Message {
  return message(md`Conference “${clipPlain(c.name, 300)}” was deleted`, [
    section(md`~${clipMd(escaped(c.name), 2_900)}~\n:wastebasket: Deleted by ${mention(byUserId)}.`),
    context(md`Conference ${c.id}`),
  ]);
}
