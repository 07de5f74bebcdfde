import type { Button, MrkdwnElement } from '@slack/types';
import type { ConferenceSummary } from '../domain/conference.js';
import { formatDateTime } from '../i18n/format.js';
import type { Locale } from '../i18n/locale.js';
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
import { clipMd, clipPlain, escaped, fromMessage, joinMd, type Mrkdwn, md, mention } from './mrkdwn.js';
import { t, tPlain } from './text.js';

/**
 * A Slack date token (each reader sees their own zone, in their Slack language): `style` is Slack's
 * date word, joined to the time as the locale writes it; its fallback (clients that cannot render it)
 * written for the locale, in UTC.
 */
export function dateToken(locale: Locale, at: Date, style: 'long' | 'short' = 'short'): Mrkdwn {
  if (Number.isNaN(at.getTime())) return md`?`;
  const format = tPlain(locale, 'conference.date.at', {
    date: style === 'long' ? '{date_long_pretty}' : '{date_short_pretty}',
    time: '{time}',
  });
  const fallback = `${formatDateTime(locale, at, 'UTC')} UTC`.replace(/[|>]/g, ' ');
  return fromMessage(
    (_own, value) => `<!date^${Math.floor(at.getTime() / 1000)}^${format}|${value(fallback)}>`,
  );
}

/** Participants as one line, cut to fit a field, with how many were left out. */
export function participantsLine(
  locale: Locale,
  list: readonly string[],
  max: number = limits.fieldText,
): Mrkdwn {
  if (list.length === 0) return t(locale, 'conference.card.none');
  const shown: Mrkdwn[] = [];
  let length = 0;
  for (const p of list) {
    const item = escaped(p);
    if (length + item.text.length + 2 > max - 20) break;
    shown.push(item);
    length += item.text.length + 2;
  }
  const more = list.length - shown.length;
  return more > 0
    ? t(locale, 'conference.card.more', { list: joinMd(shown, ', '), more })
    : joinMd(shown, ', ');
}

export const whenText = (locale: Locale, c: ConferenceSummary): Mrkdwn =>
  c.start ? dateToken(locale, c.start, 'long') : t(locale, 'conference.card.startsOnJoin');

function participantsField(locale: Locale, list: string[]): MrkdwnElement {
  const title = t(locale, 'conference.card.participantsTitle', { count: list.length });
  return mrkdwn(
    md`${title}${participantsLine(locale, list, limits.fieldText - title.text.length)}`,
    limits.fieldText,
  );
}

/** The fields every conference view shares: when, duration, moderator, participants. */
function detailFields(locale: Locale, c: ConferenceSummary): Block {
  const notSet = t(locale, 'conference.card.notSet');
  return {
    type: 'section',
    fields: [
      mrkdwn(t(locale, 'conference.card.whenField', { when: whenText(locale, c) }), limits.fieldText),
      mrkdwn(
        t(locale, 'conference.card.durationField', {
          duration: c.duration ? formatMinutes(c.duration) : notSet,
        }),
        limits.fieldText,
      ),
      mrkdwn(
        t(locale, 'conference.card.moderatorField', {
          moderator: c.moderator ? clipPlain(c.moderator.label, 200) : notSet,
        }),
        limits.fieldText,
      ),
      mrkdwn(
        t(locale, 'conference.card.statusField', {
          status: c.status
            ? t(locale, 'conference.card.status', { status: clipPlain(c.status, 200) })
            : t(locale, 'conference.card.unknown'),
        }),
        limits.fieldText,
      ),
      participantsField(locale, c.participants),
    ],
  };
}

const fallback = (locale: Locale, c: ConferenceSummary) =>
  c.start
    ? t(locale, 'conference.card.fallbackAt', {
        name: clipPlain(c.name, 300),
        at: c.start.toISOString().slice(0, 16).replace('T', ' '),
      })
    : t(locale, 'conference.card.fallback', { name: clipPlain(c.name, 300) });

/**
 * The conference card posted in a channel: details in each viewer's zone, Join (when the platform
 * gives a link), recordings & snapshots, Edit and Delete (Delete asks for confirmation first).
 */
export function buildConferenceCard(locale: Locale, c: ConferenceSummary): Message {
  return message(fallback(locale, c), [
    { type: 'header', text: plain(`📹 ${c.name}`, limits.headerText) },
    detailFields(locale, c),
    { type: 'actions', block_id: `conference_${c.id}`, elements: conferenceButtons(locale, c) },
    context(
      c.roomName
        ? t(locale, 'conference.card.contextRoom', { id: c.id, room: c.roomName })
        : t(locale, 'conference.card.context', { id: c.id }),
    ),
  ]);
}

/** The card's buttons: Join (with a link), Recordings & snapshots, Edit, Delete (which asks first). */
export function conferenceButtons(locale: Locale, c: ConferenceSummary): Button[] {
  const actions: Button[] = [];
  // The link itself is given on a click, privately, to those who may join: a channel sees no secret.
  if (c.joinUrl)
    actions.push(
      button(tPlain(locale, 'conference.card.join'), ids.actions.conferenceJoin, {
        style: 'primary',
        value: c.id,
      }),
    );
  actions.push(
    button(tPlain(locale, 'conference.card.media'), ids.actions.conferenceMedia, { value: c.id }),
    button(tPlain(locale, 'conference.card.edit'), ids.actions.conferenceEdit, { value: c.id }),
    button(tPlain(locale, 'conference.card.delete'), ids.actions.conferenceDelete, {
      value: c.id,
      style: 'danger',
      confirm: confirmDialog({
        title: tPlain(locale, 'conference.card.deleteTitle'),
        text: t(locale, 'conference.card.deleteText', { name: clipPlain(c.name, 100) }),
        confirm: tPlain(locale, 'conference.card.delete'),
        deny: tPlain(locale, 'conference.card.keep'),
        danger: true,
      }),
    }),
  );
  return actions;
}

/** What the card becomes once the conference is deleted: it stays in the channel's history, without buttons. */
export function buildDeletedCard(locale: Locale, c: { id: string; name: string }, byUserId: string): Message {
  return message(t(locale, 'conference.deleted.fallback', { name: clipPlain(c.name, 300) }), [
    section(
      t(locale, 'conference.deleted.text', { name: clipMd(escaped(c.name), 2_900), who: mention(byUserId) }),
    ),
    context(t(locale, 'conference.card.context', { id: c.id })),
  ]);
}
