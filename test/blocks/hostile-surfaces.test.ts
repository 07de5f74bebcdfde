import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildConferenceCard, buildDeletedCard } from '../../src/blocks/conference-card.js';
import { buildConferenceForm } from '../../src/blocks/conference-form.js';
import {
  buildConferenceDetails,
  buildConferenceList,
  buildJoinReply,
  buildMediaList,
} from '../../src/blocks/conference-list.js';
import {
  buildConferenceCreated,
  buildConferenceDeletePrompt,
  buildConferenceFailure,
  buildConferenceOutcome,
  buildConferencePast,
} from '../../src/blocks/conference-replies.js';
import { buildDigest } from '../../src/blocks/digest.js';
import { buildDigestForm } from '../../src/blocks/digest-form.js';
import { buildDigestReply } from '../../src/blocks/digest-replies.js';
import { buildDoctorReport } from '../../src/blocks/doctor.js';
import { buildHome } from '../../src/blocks/home.js';
import { buildJobNotice } from '../../src/blocks/job-notices.js';
import { checkBlockKit, type Surface } from '../../src/blocks/limits.js';
import {
  buildMediaDeletePrompt,
  buildMediaDetails,
  buildMediaEditForm,
  buildMediaFileComment,
  buildMediaFilterForm,
  buildMediaLibrary,
  buildMediaShared,
  buildMediaShareForm,
  buildMediaTooBig,
} from '../../src/blocks/media.js';
import { buildResultView, buildWorkingView } from '../../src/blocks/modal.js';
import { channelLink, escaped, Mrkdwn } from '../../src/blocks/mrkdwn.js';
import { buildOptions, buildOptionsNotice } from '../../src/blocks/options.js';
import {
  buildGroupMembers,
  buildGroupsBrowser,
  buildPeopleBrowser,
  buildPeopleOutcome,
  buildPeopleOutcomeMessage,
  buildPersonDeleteConfirm,
  buildPersonDetails,
  buildPersonForm,
} from '../../src/blocks/people.js';
import {
  buildAlreadyAgent,
  buildMovesOffered,
  buildNotTakable,
  buildReactionOffer,
} from '../../src/blocks/reactions.js';
import { buildReminder, buildReminderSettings } from '../../src/blocks/reminder.js';
import { buildSubscriptionReply, buildSubscriptions } from '../../src/blocks/subscriptions.js';
import { phrase, t } from '../../src/blocks/text.js';
import {
  buildDeletedTicketCard,
  buildStateBroadcast,
  buildTicketCard,
  buildTicketJoinReply,
  buildTicketList,
  buildTicketMediaList,
  buildTimeline,
  eventPayloadLine,
  eventText,
} from '../../src/blocks/ticket-card.js';
import { buildTicketEditForm, buildTicketExportForm, buildTicketForm } from '../../src/blocks/ticket-form.js';
import {
  buildGatheredLines,
  buildPersonLine,
  buildStateLine,
  personLine,
  stateLine,
  stepsLine,
} from '../../src/blocks/ticket-line.js';
import {
  buildTicketCardHere,
  buildTicketCardNotPosted,
  buildTicketCreated,
  buildTicketDeleted,
  buildTicketDeletePrompt,
  buildTicketEdited,
  buildTicketExported,
  buildTicketFileComment,
  buildTicketMediaTooBig,
} from '../../src/blocks/ticket-prompts.js';
import {
  buildConferenceUnfurl,
  buildDeletedUnfurl,
  buildMediaUnfurl,
  buildTicketUnfurl,
} from '../../src/blocks/unfurl.js';
import { buildUsage, helpIn, helpOf } from '../../src/blocks/usage.js';
import {
  buildSettingsSavedView,
  buildSetupHome,
  buildWorkspaceSettingsView,
} from '../../src/blocks/workspace-settings.js';
import { mrkdwnTexts, strayTokens } from '../../src/dev/slack-double.js';
import type { ConferenceSummary } from '../../src/domain/conference.js';
import type { MediaItem } from '../../src/domain/media.js';
import type { PlatformPerson } from '../../src/domain/people.js';
import { defaultReactionEmoji } from '../../src/domain/reactions.js';
import type { TicketSummary } from '../../src/domain/ticket.js';
import type { MessageKey } from '../../src/i18n/catalog.js';
import { en } from '../../src/i18n/en.js';
import { type Locale, locales } from '../../src/i18n/locale.js';
import { digestHelp } from '../../src/slack/commands/digest.js';
import { workingText } from '../../src/slack/replies/working-notice.js';
import { englishLeft } from '../i18n/english-left.js';

/*
 * Every surface the bot sends, rendered from ONE registry with hostile values in every outside field.
 * The registry is checked against the builders src/blocks exports: a new `buildX` without an entry
 * here fails the first test, so no surface can be forgotten.
 */

/** What an outsider (a requestor, a platform user, a person typing a command) can put in a text. */
const hostile = [
  '<!here>',
  '<!channel>',
  '<!everyone>',
  '<@UEVIL123>',
  '<#CEVIL>',
  '<https://evil.example|ok>',
  '&lt;',
  '*',
  '~',
  'Imprimante \u202Eenilno\u202C',
  'nul\u0000byte',
  'zero\u200Bwidth\u200B<!channel>\u200B',
  'All at once: <!here> <!channel> <@UEVIL123> <https://evil.example|ok> &lt; * ~ \u202E \u0000',
  // 3,500 characters of all of it.
  '<!here> <@UEVIL123> <https://evil.example|ok> &lt; *~\u202E\u0000 '.repeat(70).slice(0, 3_500),
];

const ticketOf = (s: string): TicketSummary => ({
  id: '42',
  reference: s,
  subject: s,
  description: s,
  state: s,
  type: s,
  requestor: { name: s, emails: [s], phones: [s] },
  agent: { id: '7', label: s },
  group: { id: '3', name: s },
  start: new Date('2027-04-02T14:30:00Z'),
  duration: 30,
  modified: new Date('2027-04-02T14:00:00Z'),
  agentUrl: 'https://video.example.com/agent/42',
  guestUrl: 'https://video.example.com/guest/42',
});

const conferenceOf = (s: string, participants = 3): ConferenceSummary => ({
  id: '9',
  name: s,
  roomName: s,
  start: new Date('2027-04-02T14:30:00Z'),
  duration: 45,
  status: s,
  participants: Array.from({ length: participants }, (_, i) => `${s} ${i}`),
  moderator: { id: '1', label: s },
  joinUrl: 'https://video.example.com/join/9',
});

// issue 22: people
const personOf = (s: string, i = 0): PlatformPerson => ({
  id: String(100 + i),
  username: s,
  email: s,
  cellPhone: s,
  firstName: s,
  lastName: s,
  role: s,
  groups: [
    { id: '3', name: s },
    { id: '4', name: undefined },
  ],
  details: { avatar: s, phoneNumber: s, jobTitle: s, audioOnly: 1, clickToChat: 0, maxOngoingChat: 3 },
});
const peoplePageOf = (s: string, n: number) => ({
  items: Array.from({ length: n }, (_, i) => personOf(s, i)),
  offset: 20,
  total: 2_000,
  search: s,
});

// issue 22: media
const mediaOf = (s: string, id = '5001'): MediaItem => ({
  id,
  type: s,
  status: s,
  title: s,
  description: s,
  filename: s,
  format: s,
  size: 209_715_200,
  created: new Date('2027-04-02T14:30:00Z'),
  ownerId: '101',
  groupId: '10',
  thumbnailUrl: 'https://video.example.com/thumbs/5001.png',
  url: 'https://video.example.com/files/5001.mp4',
  lat: 48.8566,
  lng: 2.3522,
});

/** A rendering and the surface whose limits it must hold. */
type Rendered = { payload: unknown; surface: Surface };
const msg = (payload: unknown): Rendered => ({
  // A sentence (Mrkdwn, or a finished string such as a file comment) goes out as a message's text.
  payload:
    payload instanceof Mrkdwn
      ? { text: payload.text }
      : typeof payload === 'string'
        ? { text: payload }
        : payload,
  surface: 'message',
});
const modal = (payload: unknown): Rendered => ({ payload, surface: 'modal' });
/**
 * A link's unfurl (`chat.unfurl`): blocks under someone else's message, held to a message's limits.
 * It has no text of its own (the message it is under has), so the check gets a stand-in fallback:
 * the pasted link (no word in any language, for the no-English-left check).
 */
const unfurl = (u: { blocks: unknown[] }): Rendered =>
  msg({ text: 'https://video.example/t/42', blocks: u.blocks });

/**
 * A type-ahead answer (issue 22) checked as the menu Slack shows it: its options in a select of a
 * modal (the count, each text's and value's length).
 */
const menuOf = (answer: { options: unknown[] }): Rendered =>
  modal({
    type: 'modal',
    title: { type: 'plain_text', text: 'Menu' },
    submit: { type: 'plain_text', text: 'Save' },
    blocks: [
      {
        type: 'input',
        block_id: 'menu',
        label: { type: 'plain_text', text: 'Menu' },
        element: { type: 'static_select', action_id: 'value', options: answer.options },
      },
    ],
  });

/** Every line of `/ticket`'s help (its table's catalog keys), for the French renders. */
const ticketHelpKeys = (Object.keys(en) as MessageKey[]).filter(
  (k) => k.startsWith('ticket.help.') && k !== 'ticket.help.title',
);

/** Every line of `/conference`'s help, the one with variables filled with hostile-free examples. */
const conferenceHelpLines = (Object.keys(en) as MessageKey[])
  .filter((k) => k.startsWith('conference.help.') && k !== 'conference.help.title')
  .map((k) =>
    k === 'conference.help.createWords'
      ? (l: 'en' | 'fr') => t(l, k, { when: '`now`', durations: '`45m`' })
      : k,
  );

/**
 * The registry: every builder of src/blocks, fed the hostile value `s` wherever outside text can go,
 * written in `locale` (each entry renders in both languages; French runs longer).
 */
const surfaces: Record<string, (s: string, locale: Locale) => Rendered[]> = {
  buildReminder: (s, locale) => [
    msg(
      buildReminder(locale, {
        title: s,
        start: new Date('2027-03-26T10:10:00Z'),
        leadMinutes: 10,
        joinUrl: s,
        invited: { members: ['UANN', s], outside: [s, s.repeat(3)] },
      }),
    ),
    msg(buildReminder(locale, { title: s, start: new Date('2027-03-26T10:10:00Z'), leadMinutes: 1 })),
  ],
  buildReminderSettings: (_, locale) => [
    {
      payload: { type: 'home', blocks: buildReminderSettings(locale, { enabled: true, leadMinutes: 15 }) },
      surface: 'home',
    },
  ],
  buildTicketCard: (s, l) => [
    msg(buildTicketCard(l, ticketOf(s))),
    // Every move's button and confirmation, and the state's label (French runs longer).
    ...(['new', 'open', 'inprogress', 'done'] as const).map((state) =>
      msg(buildTicketCard(l, { ...ticketOf(s), state, agent: undefined, group: { id: '3' } })),
    ),
    msg(
      buildTicketCard(l, {
        ...ticketOf(s),
        state: undefined,
        start: undefined,
        duration: undefined,
        group: undefined,
        requestor: { emails: [], phones: [] },
      }),
    ),
  ],
  buildDeletedTicketCard: (s, l) => [msg(buildDeletedTicketCard(l, ticketOf(s), s))],
  buildTimeline: (s, l) => [
    msg(
      buildTimeline(l, ticketOf(s), [
        { eventName: s, timestamp: new Date('2027-04-02T14:31:00Z'), source: s },
        { eventName: 'session.established', timestamp: new Date('2027-04-02T14:32:00Z') },
        { eventName: 'ticket.new', timestamp: new Date('2027-04-02T14:33:00Z'), source: 'system' },
      ]),
    ),
    msg(buildTimeline(l, ticketOf(s), [])),
  ],
  buildTicketList: (s, l) => [
    msg(
      buildTicketList(l, s, 10, 10, {
        items: [ticketOf(s), { ...ticketOf(s), id: '43', state: 'inprogress', agent: undefined }],
        total: 30,
        hasMore: true,
      }),
    ),
    msg(buildTicketList(l, '', 0, 10, { items: [], hasMore: false })),
    msg(buildTicketList(l, s, 10, 10, { items: [], hasMore: false })),
  ],
  buildTicketMediaList: (s, l) => [
    msg(
      buildTicketMediaList(
        l,
        ticketOf(s),
        [{ id: 'm1', type: s, title: s, filename: s, size: 2_000_000, created: new Date() }],
        5,
        { channel: 'C1', ts: '1.2' },
      ),
    ),
    msg(buildTicketMediaList(l, ticketOf(s), [], 0, {})),
  ],
  buildTicketJoinReply: (s, l) => [
    msg(buildTicketJoinReply(l, ticketOf(s))),
    msg(buildTicketJoinReply(l, { ...ticketOf(s), agentUrl: undefined, guestUrl: undefined })),
  ],
  buildStateBroadcast: (s, l) => [
    msg(buildStateBroadcast(l, '42', { broadcast: true, reference: s, from: s, to: s })),
    msg(buildStateBroadcast(l, '42', { broadcast: true, reference: null, from: 'new', to: 'open' })),
    msg(buildStateBroadcast(l, '42', { broadcast: true, text: `${s} is now *open* (was new).` })),
  ],
  buildStateLine: (s, l) => [
    msg(buildStateLine(l, { from: s, to: s })),
    msg(buildStateLine(l, { to: 7 })),
    msg(buildStateLine(l, { from: 'new', to: 'inprogress' })),
  ],
  buildGatheredLines: (s, l) => [
    msg(
      buildGatheredLines([
        stateLine(l, { from: s, to: s }),
        personLine(l, { line: 'moved', actor: s, from: s, to: s }),
        stepsLine(l, { steps: [s, s, 7, s] }),
        eventPayloadLine(l, { eventName: s, timestamp: '2027-04-02T14:31:00Z', source: s }),
        eventPayloadLine(l, { eventName: 'consent.accepted', source: 'guest' }),
        eventPayloadLine(l, {}),
      ]),
    ),
  ],
  buildPersonLine: (s, l) => [
    msg(buildPersonLine(l, { line: 'moved', actor: s, from: s, to: s })),
    msg(buildPersonLine(l, { line: 'edited', actor: 'UALICE', fields: [s, s] })),
    msg(buildPersonLine(l, { line: 'edited', actor: 'UALICE', fields: ['subject', 'groupId'] })),
    ...(['took', 'edited', 'deleted', 'created'] as const).map((line) =>
      msg(buildPersonLine(l, { line, actor: 'UALICE' })),
    ),
  ],
  buildTicketDeletePrompt: (s, locale) => [
    msg(
      buildTicketDeletePrompt(
        locale,
        { id: '42', reference: s },
        JSON.stringify({ ticketId: '42', channel: s }),
      ),
    ),
    msg(buildTicketDeletePrompt(locale, { id: '42' }, JSON.stringify({ ticketId: '42', channel: s }))),
  ],
  buildTicketDeleted: (s, locale) => [
    msg(buildTicketDeleted(locale, { id: '42', reference: s })),
    msg(buildTicketDeleted(locale, { id: '42' })),
  ],
  buildTicketFileComment: (s, locale) => [
    msg(buildTicketFileComment(locale, s, 'shared')),
    msg(buildTicketFileComment(locale, s, 'exported')),
    msg(buildTicketFileComment(locale, s, 'shared all')),
  ],
  buildTicketMediaTooBig: (s, locale) => [
    msg(buildTicketMediaTooBig(locale, { id: '42', reference: s }, 2e9, 1e9)),
    msg(buildTicketMediaTooBig(locale, { id: '42' }, 2e9, 1e9)),
    msg(buildTicketMediaTooBig(locale, { id: '42', reference: s }, 1e9, 1e9, true)),
    msg(buildTicketMediaTooBig(locale, { id: '42' }, 5e6, 4e5)),
  ],
  buildTicketEdited: (s, locale) => [
    msg(buildTicketEdited(locale, [s, s])),
    msg(buildTicketEdited(locale, ['subject', 'description', 'reference', 'state', 'agent', 'groupId'])),
    msg(buildTicketEdited(locale, [])),
  ],
  buildTicketExported: (_s, locale) => [
    msg(buildTicketExported(locale, true)),
    msg(buildTicketExported(locale, false)),
  ],
  buildTicketCardNotPosted: (s, locale) => [msg(buildTicketCardNotPosted(locale, ticketOf(s), escaped(s)))],
  // The permalink is Slack's, but goes through the same link rule as any outside URL.
  buildTicketCardHere: (s, locale) => [
    msg(buildTicketCardHere(locale, ticketOf(s), `https://x.slack.com/archives/C1/p1?${s}`)),
    msg(buildTicketCardHere(locale, ticketOf(s), undefined)),
  ],
  buildTicketCreated: (s, locale) => [
    msg(buildTicketCreated(locale, { id: '42', reference: s }, { channel: s })),
    msg(
      buildTicketCreated(
        locale,
        { id: '42', reference: s },
        { channel: 'C1', problem: escaped(s), dropped: escaped(s) },
      ),
    ),
  ],
  buildTicketForm: (s, locale) => [
    modal(
      buildTicketForm({
        locale,
        values: {
          phones: [s],
          emails: [s],
          scopes: [s],
          name: s,
          subject: s,
          reference: s,
          description: s,
          state: 'inprogress',
          invite: true,
          inviteOrganizer: true,
        },
        choices: { groups: [{ id: '3', name: s }], users: [{ id: '7', name: s }] },
        metadata: '',
        notices: [escaped(s)],
        problems: { emails: escaped(s) },
      }),
    ),
  ],
  buildTicketEditForm: (s, locale) => [
    modal(
      buildTicketEditForm({
        locale,
        values: { subject: s, description: s, reference: s, state: 'open' },
        choices: { groups: [{ id: '3', name: s }], users: [] },
        metadata: '',
        notices: [escaped(s)],
      }),
    ),
  ],
  // Its metadata is the bot's own (the card's place: Slack ids), never outside text.
  buildTicketExportForm: (_s, locale) => [
    modal(buildTicketExportForm(locale, JSON.stringify({ ticketId: '42', channel: 'C1', ts: '1.2' }))),
  ],
  buildConferenceCard: (s, locale) => [msg(buildConferenceCard(locale, conferenceOf(s)))],
  buildDeletedCard: (s, locale) => [msg(buildDeletedCard(locale, conferenceOf(s), s))],
  buildConferenceDetails: (s, locale) => [msg(buildConferenceDetails(locale, conferenceOf(s, 300), 1))],
  buildConferenceList: (s, locale) => [
    msg(
      buildConferenceList(
        locale,
        { filter: 'all', search: s, offset: 10 },
        { items: [conferenceOf(s), { ...conferenceOf(s), id: '10' }], total: 40, hasMore: true },
      ),
    ),
  ],
  buildMediaList: (s, locale) => [
    msg(
      buildMediaList(
        locale,
        conferenceOf(s),
        [{ id: s.slice(0, 60), type: s, title: s, format: s, size: 3_000, created: new Date() }],
        9,
      ),
    ),
  ],
  buildJoinReply: (s, locale) => [
    msg(buildJoinReply(locale, { name: s }, 'https://video.example.com/join/9')),
    msg(buildJoinReply(locale, { name: s }, undefined)),
  ],
  buildConferenceForm: (s, locale) => [
    modal(
      buildConferenceForm({
        locale,
        mode: 'create',
        values: { participants: [s], people: [], name: s, message: s, entryMode: s, serviceKey: s },
        metadata: '{}',
        notices: [escaped(s)],
        problems: { participants: escaped(s) },
      }),
    ),
  ],
  buildConferenceFailure: (s, locale) => [
    msg(buildConferenceFailure(locale, s, s)),
    msg(buildConferenceFailure(locale, escaped(s), s)),
  ],
  buildConferencePast: (s, locale) => [msg(buildConferencePast(locale, s, s, s))],
  buildConferenceCreated: (s, locale) => [
    msg(buildConferenceCreated(locale, conferenceOf(s), { dropped: escaped(s) })),
    msg(buildConferenceCreated(locale, conferenceOf(s), { dropped: escaped(s), problem: escaped(s) })),
  ],
  buildConferenceDeletePrompt: (s, locale) => [msg(buildConferenceDeletePrompt(locale, conferenceOf(s)))],
  buildConferenceOutcome: (s, locale) => [
    msg(buildConferenceOutcome(locale, conferenceOf(s), { kind: 'saved' }, escaped(s))),
    msg(buildConferenceOutcome(locale, conferenceOf(s), { kind: 'planned', channel: s, posted: true })),
    msg(
      buildConferenceOutcome(locale, conferenceOf(s), {
        kind: 'planned',
        channel: 'C1',
        posted: false,
        fix: escaped(s),
      }),
    ),
    msg(
      buildConferenceOutcome(locale, conferenceOf(s), {
        kind: 'card-failed',
        mode: 'create',
        why: escaped(s),
      }),
    ),
  ],
  buildWorkingView: (s, locale) => [
    modal(buildWorkingView(locale, s, escaped(s))),
    modal(buildWorkingView(locale, s, workingText(locale, s, 120_000))),
    modal(buildWorkingView(locale, s, workingText(locale, phrase('working.creatingConference'), 45_000))),
  ],
  buildResultView: (s, locale) => [
    modal(buildResultView(locale, s, escaped(s), buildConferenceCard(locale, conferenceOf(s)).blocks)),
  ],
  // issue 23: distribution mode's settings (the workspace name and the saved values are outside text)
  buildWorkspaceSettingsView: (s, locale) => [
    modal(buildWorkspaceSettingsView(locale, undefined)),
    modal(
      buildWorkspaceSettingsView(
        locale,
        {
          platformUrl: s,
          credentialsKind: 'password',
          serviceKey: s,
          language: s,
          channelLanguage: 'fr',
          ticketCreators: 'admin',
          updatedBy: 'U1',
          updatedAt: new Date('2026-11-25T10:00:00Z'),
          webhooks: true,
        },
        escaped(s),
      ),
    ),
  ],
  buildSettingsSavedView: (s, locale) => [
    modal(buildSettingsSavedView(locale, { url: s, header: s, secret: true })),
    modal(buildSettingsSavedView(locale, { url: s, header: s, secret: false })),
  ],
  buildSetupHome: (s, locale) => [
    { payload: buildSetupHome({ locale, teamName: s, admin: true }), surface: 'home' },
    { payload: buildSetupHome({ locale, teamName: s, admin: false }), surface: 'home' },
  ],
  buildHome: (s, locale) => [
    {
      payload: buildHome(locale, {
        account: { id: '1', username: s, role: s, email: s },
        loading: false,
        conferences: { items: [conferenceOf(s), { ...conferenceOf(s), joinUrl: undefined }], more: true },
        tickets: { items: [ticketOf(s)], more: true },
        subscriptions: [
          { id: 'a', channel: 'C1', kind: 'watch', ticketId: '1', filter: { reference: s } },
          { id: 'b', channel: 'C1', kind: 'follow', ticketId: undefined, filter: { search: s, group: s } },
          { id: 'c', channel: 'C1', kind: 'reactions', ticketId: undefined, filter: {} },
        ],
        digests: [{ id: 'd', channel: 'C1', zone: 'Europe/Paris', time: '09:00', weekdays: [1, 2] }],
        admin: {
          users: 3,
          groups: 1,
          yesterday: { date: '2026-11-24', stats: undefined },
          doctor: 'checking',
        },
        tools: [{ label: phrase('home.tool.people'), actionId: 'people_open' }],
      }),
      surface: 'home',
    },
    {
      payload: buildHome(locale, { loading: false, noAccount: escaped(s), subscriptions: [], digests: [] }),
      surface: 'home',
    },
    {
      payload: buildHome(locale, {
        account: { id: '1', email: 'a@b.c' },
        loading: false,
        conferences: { failed: escaped(s) },
        tickets: { failed: escaped(s) },
        subscriptions: [],
        digests: [],
      }),
      surface: 'home',
    },
  ],
  buildDigest: (s, locale) => [
    msg(
      buildDigest(
        {
          date: '2027-04-01',
          days: [{ date: '2027-04-01', stats: { session_count: 3 } as never }],
          report: {
            total: 2,
            by_state: { [s]: 2 },
            by_agent: [{ username: s, count: 2 }],
            by_group: [{ name: s, count: 1 }],
          } as never,
          missing: [s],
        },
        { locale, next: new Date('2027-04-02T07:00:00Z') },
      ),
    ),
    // With its chart: the alt text (plain, never parsed) clipped to Slack's 2,000 characters.
    msg(
      buildDigest(
        { date: '2027-04-01', days: [], report: undefined, missing: [] },
        { locale, chart: { fileId: 'F0CHART01', alt: `${s} `.repeat(400) } },
      ),
    ),
  ],
  buildDigestForm: (s, locale) => [
    // The channel is a Slack id and the time is parsed: only the zone is as the person typed it.
    modal(buildDigestForm({ locale, channel: 'C1', time: '09:00', zone: s.slice(0, 100), weekdays: [1] })),
  ],
  buildDigestReply: (s, locale) => {
    const schedule = { id: s, channel: s, time: s, zone: s, weekdays: [1, 2], createdBy: s };
    return [
      msg(
        buildDigestReply(locale, {
          kind: 'list',
          channel: s,
          schedules: [schedule, schedule],
          help: digestHelp(locale),
        }),
      ),
      msg(buildDigestReply(locale, { kind: 'list', channel: s, schedules: [], help: digestHelp(locale) })),
      msg(buildDigestReply(locale, { kind: 'no-such-id', channel: s, id: s })),
      msg(buildDigestReply(locale, { kind: 'none', channel: s })),
      msg(buildDigestReply(locale, { kind: 'removed', channel: s, count: 2 })),
      msg(buildDigestReply(locale, { kind: 'bad-time', words: s })),
      msg(buildDigestReply(locale, { kind: 'bad-days', words: s })),
      msg(buildDigestReply(locale, { kind: 'problem', problem: s })),
      msg(buildDigestReply(locale, { kind: 'not-understood', words: s, help: digestHelp(locale) })),
      msg(buildDigestReply(locale, { kind: 'saved', schedule, next: new Date(0), replaced: true })),
    ];
  },
  buildDoctorReport: (s, locale) => [
    msg(
      buildDoctorReport(locale, {
        checks: (['configuration', 'slack', 'platform', 'store'] as const).map((section) => ({
          section,
          name: s,
          status: 'blocking' as const,
          detail: s,
          blocking: true,
        })),
        platformRequests: 3,
        blocking: true,
        at: new Date(0),
      }),
    ),
  ],
  buildSubscriptions: (s, l) => {
    const sub = (kind: 'watch' | 'follow') => ({
      id: `${kind}-1`,
      kind,
      ticketId: s,
      filter: { reference: s, group: s, states: [s, s] },
      createdBy: s,
    });
    return [
      msg(
        buildSubscriptions(l, s, [
          sub('watch'),
          sub('follow'),
          { ...sub('follow'), id: 'reactions-1', kind: 'reactions' },
        ]),
      ),
      msg(buildSubscriptions(l, s, [])),
    ];
  },
  buildSubscriptionReply: (s, l) => [
    msg(buildSubscriptionReply(l, s, { kind: 'followed', filter: { group: s } })),
    msg(buildSubscriptionReply(l, 'C1', { kind: 'followed', filter: {} })),
    ...(['watching', 'already-watching', 'unwatched', 'not-watching'] as const).map((kind) =>
      msg(buildSubscriptionReply(l, 'C1', { kind, ticket: s })),
    ),
    ...(['reactions-on', 'reactions-already', 'reactions-off', 'reactions-not-on'] as const).map((kind) =>
      msg(buildSubscriptionReply(l, 'C1', { kind, emoji: { create: s, take: s, done: s } })),
    ),
  ],
  // issue 37: reactions (the emoji are the deployment's; hostile anyway)
  buildReactionOffer: (s, l) => [
    msg(buildReactionOffer(l, { c: 'C1', ts: '1.000001' }, { create: s, take: s, done: s })),
  ],
  buildMovesOffered: (s, l) => [
    msg(buildMovesOffered(l, { ...ticketOf(s), state: s }, { create: s, take: s, done: s })),
    msg(buildMovesOffered(l, { ...ticketOf(s), state: 'open' }, defaultReactionEmoji)),
    msg(buildMovesOffered(l, { ...ticketOf(s), state: undefined }, defaultReactionEmoji)),
    msg(buildMovesOffered(l, { ...ticketOf(s), state: 'closed' }, defaultReactionEmoji)),
  ],
  buildAlreadyAgent: (s, l) => [msg(buildAlreadyAgent(l, ticketOf(s), { create: s, take: s, done: s }))],
  buildNotTakable: (s, l) => [msg(buildNotTakable(l, { ...ticketOf(s), state: s }, defaultReactionEmoji))],
  // Link unfurls: seen by the whole channel (checked as a message's blocks).
  buildTicketUnfurl: (s, locale) => [
    unfurl(buildTicketUnfurl(locale, ticketOf(s))),
    unfurl(buildTicketUnfurl(locale, { ...ticketOf(s), state: 'inprogress', start: undefined })),
  ],
  buildConferenceUnfurl: (s, locale) => [unfurl(buildConferenceUnfurl(locale, conferenceOf(s, 300)))],
  buildMediaUnfurl: (s, locale) => [unfurl(buildMediaUnfurl(locale, mediaOf(s)))],
  buildDeletedUnfurl: (s, locale) => [unfurl(buildDeletedUnfurl(locale, s, s))],
  buildJobNotice: (s, locale) => [
    msg(buildJobNotice(locale, { kind: 'set-aside', channel: s, what: 'event', reason: s, fix: 'channel' })),
    msg(
      buildJobNotice(locale, { kind: 'set-aside', channel: 'C1', what: 'card', reason: s, fix: 'operator' }),
    ),
    msg(buildJobNotice(locale, { kind: 'parked', channel: s, reason: s })),
    msg(buildJobNotice(locale, { kind: 'digest-refused', channel: s, reason: s })),
    msg(buildJobNotice(locale, { kind: 'digest-paused', channel: s })),
  ],
  // issue 22: pickers. 150 people named `s` (past Slack's 100), one with an id past 75 characters.
  buildOptions: (s) => [
    menuOf(
      buildOptions([
        { id: 'x'.repeat(80), label: s },
        ...Array.from({ length: 150 }, (_, i) => ({ id: String(i), label: `${s} ${s} (${s})` })),
      ]),
    ),
  ],
  buildOptionsNotice: (s) => [menuOf(buildOptionsNotice(s))],
  buildUsage: (s, locale) => [
    msg(buildUsage(helpOf(escaped(s), [escaped(s)]), s)),
    // /conference digest's help in the reader's language (`digestHelp`, as its replies show it).
    msg(buildUsage(digestHelp(locale), escaped(s))),
    msg(buildUsage(digestHelp(locale))),
    // Translated: /ticket's help and problems in French (every line of its table), within the same limits.
    msg(
      buildUsage(
        helpIn('fr', 'ticket.help.title', ticketHelpKeys),
        t('fr', 'ticket.list.date', { key: s, value: s }),
      ),
    ),
    msg(
      buildUsage(
        helpIn('fr', 'ticket.help.title', ticketHelpKeys),
        t('fr', 'ticket.list.requestor', { value: s }),
      ),
    ),
    msg(
      buildUsage(
        helpIn('fr', 'conference.help.title', conferenceHelpLines),
        t('fr', 'conference.problem.ref', { verb: s }),
      ),
    ),
    msg(
      buildUsage(
        helpIn('fr', 'conference.help.title', conferenceHelpLines),
        t('fr', 'conference.problem.adminKnows', { verbs: escaped(s) }),
      ),
    ),
    msg(
      buildUsage(
        helpIn(locale, 'ticket.help.title', ticketHelpKeys),
        t(locale, 'ticket.list.requestor', { value: s }),
      ),
    ),
  ],
  // issue 22: people
  buildPeopleBrowser: (s, locale) => [
    modal(buildPeopleBrowser(locale, peoplePageOf(s, 2_000), { notice: escaped(s) })),
    modal(buildPeopleBrowser(locale, { items: [], offset: 0, total: 0, search: s })),
  ],
  buildPersonDetails: (s, locale) => [modal(buildPersonDetails(locale, personOf(s)))],
  buildPersonForm: (s, locale) => [
    modal(
      buildPersonForm({
        locale,
        mode: 'create',
        values: { username: s, email: s, cellPhone: s, firstName: s, lastName: s },
        notices: [escaped(s)],
        problems: { username: escaped(s), user_password: escaped(s) },
      }),
    ),
    modal(
      buildPersonForm({
        locale,
        mode: 'edit',
        values: personOf(s).details,
        metadata: '{"u":"100"}',
        who: s,
        problems: { jobTitle: escaped(s) },
      }),
    ),
  ],
  buildPersonDeleteConfirm: (s, locale) => [
    modal(
      buildPersonDeleteConfirm(
        locale,
        personOf(s),
        { openTickets: { count: 100, atLeast: true }, upcomingConferences: { count: 1, atLeast: false } },
        '{"u":"100"}',
      ),
    ),
    modal(
      buildPersonDeleteConfirm(
        locale,
        personOf(s),
        { openTickets: { count: 0, atLeast: false }, upcomingConferences: { count: 0, atLeast: false } },
        '{"u":"100"}',
      ),
    ),
  ],
  buildGroupsBrowser: (s, locale) => [
    modal(
      buildGroupsBrowser(
        locale,
        Array.from({ length: 500 }, (_, i) => ({ id: String(i), name: s, memberCount: i })),
      ),
    ),
    modal(
      buildGroupsBrowser(locale, [
        { id: '1', name: undefined, memberCount: undefined },
        { id: '2', name: s, memberCount: 1 },
      ]),
    ),
  ],
  buildGroupMembers: (s, locale) => [
    modal(buildGroupMembers(locale, { id: '3', name: s, memberCount: 2_000 }, peoplePageOf(s, 40))),
  ],
  buildPeopleOutcome: (s, locale) => [
    modal(buildPeopleOutcome(locale, { kind: 'created', username: s, id: '9' })),
    modal(buildPeopleOutcome(locale, { kind: 'updated', person: personOf(s) })),
    modal(buildPeopleOutcome(locale, { kind: 'deleted', person: personOf(s) })),
    modal(buildPeopleOutcome(locale, { kind: 'reset', login: s, own: false })),
    modal(buildPeopleOutcome(locale, { kind: 'reset', login: s, own: true })),
    modal(
      buildPeopleOutcome(locale, {
        kind: 'deleted',
        person: { ...personOf(s), firstName: undefined, lastName: undefined, username: undefined },
      }),
    ),
  ],
  buildPeopleOutcomeMessage: (s, locale) => [
    msg(buildPeopleOutcomeMessage(locale, { kind: 'reset', login: s, own: true })),
    msg(buildPeopleOutcomeMessage(locale, { kind: 'reset', login: s, own: false })),
  ],
  // issue 22: media
  buildMediaLibrary: (s, locale) => [
    modal(
      buildMediaLibrary(
        locale,
        { q: s.slice(0, 1_000), o: 10 },
        {
          items: Array.from({ length: 120 }, (_, i) => mediaOf(s, String(5000 + i))),
          offset: 10,
          limit: 10,
          total: 300,
          hasMore: true,
          hidden: 2,
        },
        escaped(s),
      ),
    ),
    modal(buildMediaLibrary(locale, { q: '', o: 0 }, { items: [], offset: 0, limit: 10, hasMore: false })),
    modal(
      buildMediaLibrary(
        locale,
        { q: s.slice(0, 1_000), o: 0 },
        { items: [], offset: 0, limit: 10, hasMore: true, hidden: 3 },
      ),
    ),
    modal(
      buildMediaLibrary(
        locale,
        { q: '', o: 20 },
        { items: [mediaOf(s)], offset: 20, limit: 10, hasMore: false, hidden: 1 },
      ),
    ),
    modal(buildMediaLibrary(locale, { q: '', o: 10 }, { items: [], offset: 10, limit: 10, hasMore: false })),
  ],
  buildMediaDetails: (s, locale) => [
    modal(buildMediaDetails(locale, { ...mediaOf(s), lat: 48.8566, lng: 2.3522 })),
    modal(buildMediaDetails(locale, { id: '1', title: undefined })),
    modal(buildMediaDetails(locale, { id: '2', type: 'recording', status: 'processing', size: 5e9 })),
  ],
  buildMediaEditForm: (s, locale) => [modal(buildMediaEditForm(locale, mediaOf(s), '{"m":"5001","v":"V1"}'))],
  buildMediaShareForm: (s, locale) => [
    modal(buildMediaShareForm(locale, mediaOf(s), '{"m":"5001","v":"V1"}', 'C1')),
    modal(buildMediaShareForm(locale, { ...mediaOf(s), size: 5e9 }, '{}')),
  ],
  buildMediaFilterForm: (s, locale) => [
    modal(buildMediaFilterForm(locale, { q: s.slice(0, 1_000), o: 0 }, '{"v":"V1"}')),
  ],
  buildMediaDeletePrompt: (s, locale) => [
    modal(buildMediaDeletePrompt(locale, mediaOf(s), { q: s.slice(0, 1_000), o: 0 })),
  ],
  buildMediaShared: (_s, locale) => [
    msg(buildMediaShared(locale, channelLink('C1'), true)),
    msg(buildMediaShared(locale, channelLink('C1'), false)),
  ],
  buildMediaTooBig: (s, locale) => [
    msg(
      buildMediaTooBig(locale, mediaOf(s), 2e9, 'https://video.example.com/api/v3/medias/5001/download', 1e9),
    ),
    msg(buildMediaTooBig(locale, mediaOf(s), 2e9, undefined, 1e9)),
  ],
  buildMediaFileComment: (s, locale) => [
    msg(buildMediaFileComment(locale, 'UALICE', mediaOf(s))),
    msg(buildMediaFileComment(locale, 'UALICE', { id: '7', type: 'recording' })),
  ],
  // Not a builder by name, but the thread line of every platform event goes through it.
  eventText: (s, l) => [
    msg({ text: eventText(l, { eventName: s, timestamp: '2027-04-02T14:31:00Z', source: s }) }),
    msg({ text: eventText(l, { eventName: 'ticket.invitationSent', source: 'agent' }) }),
  ],
};

/** Every string in a payload that is not parsed by Slack (plain_text, values, ids…). */
function allStrings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) allStrings(x, out);
  else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) allStrings(x, out);
  return out;
}

const blocksDir = fileURLToPath(new URL('../../src/blocks/', import.meta.url));

describe('every surface the bot sends, with hostile outside text', () => {
  it('has an entry for every builder src/blocks exports', async () => {
    const builders: string[] = [];
    for (const file of readdirSync(blocksDir).filter((f) => f.endsWith('.ts'))) {
      const mod = (await import(`${blocksDir}${file}`)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod))
        if (name.startsWith('build') && typeof value === 'function') builders.push(name);
    }
    expect(builders.length).toBeGreaterThan(35);
    expect(builders.filter((name) => !(name in surfaces))).toEqual([]);
  });

  for (const [name, render] of Object.entries(surfaces))
    it(`${name}: no live mention, broadcast or link, no NUL, every limit held, in English and French`, () => {
      for (const locale of locales)
        for (const s of hostile)
          for (const [i, { payload, surface }] of render(s, locale).entries()) {
            const where = `${name}[${i}] ${locale} with ${JSON.stringify(s.slice(0, 30))}`;
            expect(checkBlockKit(payload, surface), where).toEqual([]);
            // What Slack parses: the fallback text and every mrkdwn text object.
            const texts = mrkdwnTexts(payload);
            if (surface === 'message') expect(texts.length, where).toBeGreaterThan(0);
            for (const text of texts) {
              expect(strayTokens(text), where).toEqual([]);
              expect(text.replace(/<!date\^/g, ''), where).not.toContain('<!');
              expect(text, where).not.toContain('<@UEVIL123>');
              expect(text, where).not.toContain('<#CEVIL>');
              expect(text, where).not.toContain('<https://evil');
              // Every `&` starts an entity: nothing escaped twice by mistake, no entity cut in half.
              expect(text.replace(/&(?:amp|lt|gt);/g, ''), where).not.toContain('&');
            }
            // Nowhere, parsed or not (plain text, values, metadata): Slack refuses or cuts at a NUL.
            for (const text of allStrings(payload)) expect(text, where).not.toContain('\u0000');
          }
    });
});

/**
 * The builders whose French render still has English in it: this list only shrinks (issue 39), and
 * a builder on it that no longer has English fails the test below, so it cannot stay here by mistake.
 * One group a family of surfaces (i18n/messages/), a blank comment line between groups.
 */
const notYetFrench = new Set<string>([
  // tickets: cards, thread lines, subscriptions, reactions
  // ticket forms and prompts
  // conferences and reminders
  // home and workspace settings
  // people
  // media
  // digest, doctor, job notices, unfurls
  // common: modals, usage
]);

/** Outside data of a benign render: a French name, so what is left is the bot's own words. */
const benign = 'Zoé Lefèvre';

describe('every surface the bot sends, in French', () => {
  for (const name of Object.keys(surfaces))
    it(`${name}: ${notYetFrench.has(name) ? 'still has English (issue 39)' : 'no English word left'}`, () => {
      const left = surfaces[name]?.(benign, 'fr').flatMap(({ payload }) => englishLeft(payload, [benign]));
      if (notYetFrench.has(name)) expect(left, 'translated: take it off notYetFrench').not.toEqual([]);
      else expect(left).toEqual([]);
    });

  it('the check finds English in a payload and leaves code, tokens and outside text alone', () => {
    const payload = {
      text: 'Ticket créé',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: 'Click *Take* to open it `/ticket show 42`' } },
      ],
    };
    expect(englishLeft(payload)).toEqual(['click', 'it', 'open', 'to']);
    expect(
      englishLeft({ text: 'Voir `/ticket list all` <https://x.example/the|lien> :white_check_mark:' }),
    ).toEqual([]);
    expect(englishLeft({ text: 'Demandé par The Open Group' }, ['The Open Group'])).toEqual([]);
  });
});
