import { slackDate } from '../domain/time.js';
import { ids } from '../slack/ids.js';
import { clip, limits } from './limits.js';

/** A conference as the cards show it (mapped from the platform record by the conference service). */
export interface ConferenceSummary {
  id: string;
  name: string;
  roomName?: string | undefined;
  start?: Date | undefined;
  duration?: number | undefined;
  status?: string | undefined;
  participants: string[];
  moderator?: { id?: string | undefined; label: string } | undefined;
  joinUrl?: string | undefined;
}

/** Block Kit blocks, loosely typed: builders return plain JSON that `checkBlockKit` verifies. */
export type Block = { type: string } & Record<string, unknown>;
/** Any other Block Kit JSON object (elements, composition objects). */
export type Json = Record<string, unknown>;
export interface MessagePayload {
  text: string;
  blocks: Block[];
}

export const mrkdwn = (text: string, max: number = limits.sectionText) => ({
  type: 'mrkdwn',
  text: clip(text, max),
});
export const plain = (text: string, max: number) => ({
  type: 'plain_text',
  text: clip(text, max),
  emoji: true,
});
export const section = (text: string, extra: Json = {}): Block => ({
  type: 'section',
  text: mrkdwn(text),
  ...extra,
});
export const context = (text: string): Block => ({ type: 'context', elements: [mrkdwn(text)] });
export const button = (
  text: string,
  actionId: string,
  extra: { value?: string; url?: string; style?: 'primary' | 'danger'; confirm?: Json } = {},
): Json => ({ type: 'button', text: plain(text, limits.buttonText), action_id: actionId, ...extra });

/** Escapes the three characters Slack's mrkdwn treats as control characters. */
export const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function formatMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h ? `${h} h` : '', m ? `${m} min` : ''].filter(Boolean).join(' ') || '0 min';
}

/** A file size for people: kB, MB or GB. */
export const humanSize = (bytes: number) =>
  bytes >= 1e9
    ? `${(bytes / 1e9).toFixed(1)} GB`
    : bytes >= 1e6
      ? `${(bytes / 1e6).toFixed(1)} MB`
      : `${Math.ceil(bytes / 1e3)} kB`;

/** Participants as one line, cut to fit a field, with how many were left out. */
export function participantsLine(list: string[], max: number = limits.fieldText): string {
  if (list.length === 0) return '_none_';
  const shown: string[] = [];
  let length = 0;
  for (const p of list) {
    const item = escapeText(p);
    if (length + item.length + 2 > max - 20) break;
    shown.push(item);
    length += item.length + 2;
  }
  const more = list.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

export const whenText = (c: ConferenceSummary) =>
  c.start ? slackDate(c.start, '{date_long_pretty} at {time}') : '_starts when the first person joins_';

function participantsField(list: string[]): Json {
  const title = `*Participants (${list.length})*\n`;
  return mrkdwn(title + participantsLine(list, limits.fieldText - title.length), limits.fieldText);
}

/** The fields every conference view shares: when, duration, moderator, participants. */
function detailFields(c: ConferenceSummary): Block {
  return {
    type: 'section',
    fields: [
      mrkdwn(`*When*\n${whenText(c)}`, limits.fieldText),
      mrkdwn(`*Duration*\n${c.duration ? formatMinutes(c.duration) : '_not set_'}`, limits.fieldText),
      mrkdwn(
        `*Moderator*\n${c.moderator ? escapeText(clip(c.moderator.label, 200)) : '_not set_'}`,
        limits.fieldText,
      ),
      mrkdwn(`*Status*\n${c.status ? escapeText(c.status) : '_unknown_'}`, limits.fieldText),
      participantsField(c.participants),
    ],
  };
}

const fallback = (c: ConferenceSummary) =>
  `Conference “${c.name}”${c.start ? ` on ${c.start.toISOString().slice(0, 16).replace('T', ' ')} UTC` : ''}`;

/**
 * The conference card posted in a channel: details in each viewer's zone, Join (when the platform
 * gives a link), recordings & snapshots, Edit and Delete (Delete asks for confirmation first).
 */
export function buildConferenceCard(c: ConferenceSummary): MessagePayload {
  const actions: Json[] = [];
  // The link itself is given on a click, privately, to those who may join: a channel sees no secret.
  if (c.joinUrl) actions.push(button('Join', ids.actions.conferenceJoin, { style: 'primary', value: c.id }));
  actions.push(
    button('Recordings & snapshots', ids.actions.conferenceMedia, { value: c.id }),
    button('Edit', ids.actions.conferenceEdit, { value: c.id }),
    button('Delete', ids.actions.conferenceDelete, {
      value: c.id,
      style: 'danger',
      confirm: {
        title: plain('Delete this conference?', limits.confirmTitle),
        text: mrkdwn(
          `“${escapeText(clip(c.name, 100))}” will be removed from the video platform for everyone. This cannot be undone.`,
          limits.confirmText,
        ),
        confirm: plain('Delete', limits.confirmButton),
        deny: plain('Keep it', limits.confirmButton),
        style: 'danger',
      },
    }),
  );
  return {
    text: fallback(c),
    blocks: [
      { type: 'header', text: plain(`📹 ${c.name}`, limits.headerText) },
      detailFields(c),
      { type: 'actions', block_id: `conference_${c.id}`, elements: actions },
      context(`Conference ${escapeText(c.id)}${c.roomName ? ` · room \`${escapeText(c.roomName)}\`` : ''}`),
    ],
  };
}

/** What the card becomes once the conference is deleted: it stays in the channel's history, without buttons. */
export function buildDeletedCard(c: { id: string; name: string }, byUserId: string): MessagePayload {
  return {
    text: `Conference “${c.name}” was deleted`,
    blocks: [
      section(`~${escapeText(c.name)}~\n:wastebasket: Deleted by <@${byUserId}>.`),
      context(`Conference ${escapeText(c.id)}`),
    ],
  };
}
