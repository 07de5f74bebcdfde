import type { ModalView } from '@slack/types';
import type { ConferenceFormValues } from '../domain/conference.js';
import { ids } from './ids.js';
import { input, numberInput, option, textInput } from './inputs.js';
import { type Block, context, plain, section } from './kit.js';
import { limits } from './limits.js';
import { type Mrkdwn, md } from './mrkdwn.js';

const f = ids.conferenceForm;

export interface ConferenceFormOptions {
  mode: 'create' | 'edit';
  values: ConferenceFormValues;
  /** Carried to the submission (`private_metadata`, at most 3,000 characters). */
  metadata: string;
  /** Shown at the top: what the command text could not be read as, or why the last try failed. */
  notices?: Mrkdwn[];
  /** Per block id: a problem shown right under that input (for failures found after the submission). */
  problems?: Record<string, Mrkdwn>;
  /** Edit: the conference has a password (the platform never returns it). */
  hasPassword?: boolean;
  /** Shown again after a failed try, so that nothing typed is lost. */
  password?: string | undefined;
}

/** At most this many notices open the form, so that a long command text cannot fill it (100 blocks). */
export const maxNotices = 5;

const shownNotices = <T>(notices: (T | string)[]): (T | string)[] =>
  notices.length <= maxNotices
    ? notices
    : [
        ...notices.slice(0, maxNotices - 1),
        `…and ${(notices.length - maxNotices + 1).toLocaleString('en-US')} more problems.`,
      ];

/** Notification template languages the platform is known to have (platform-facts.md). */
export const languages = [
  { value: 'en', label: 'English' },
  { value: 'fr', label: 'Français' },
] as const;

const checkboxOptions = {
  moderation: option('moderation', 'Waiting room: guests wait for the moderator'),
  open: option('open', 'Leave the conference open after its end'),
  invite: option('invite', 'Send the invitations (e-mail or SMS)'),
};

/**
 * The create/edit modal: one input per create parameter of the spec (participants as text and as
 * Slack people, name, start time, duration, message, password, options, entry mode, reminder,
 * template, language, moderator, service key, scope) and the channel for the card.
 */
export function buildConferenceForm(o: ConferenceFormOptions): ModalView {
  const v = o.values;
  const checked = (['moderation', 'open', 'invite'] as const).filter((k) =>
    k === 'invite' ? v.invite !== false : v[k] === true,
  );
  const problem = (blockId: string): Block[] => {
    const p = o.problems?.[blockId];
    return p ? [context(md`:warning: ${p}`)] : [];
  };
  const blocks: Block[] = [
    ...shownNotices(o.notices ?? []).map((n) => section(md`:warning: ${n}`)),
    ...(o.mode === 'create'
      ? [
          input(
            f.channel,
            'Post the card in',
            {
              type: 'conversations_select',
              ...(v.channel
                ? { initial_conversation: v.channel }
                : { default_to_current_conversation: true }),
              filter: { include: ['public', 'private', 'mpim', 'im'], exclude_bot_users: true },
            },
            { optional: false },
          ),
        ]
      : []),
    input(
      f.participants,
      'Participants: e-mails or phone numbers',
      textInput(v.participants.join(', '), {
        multiline: true,
        placeholder: plain('alice@example.com, +33612345678', limits.placeholder),
      }),
      {
        hint: 'Separate with commas or new lines. Phone numbers in international form (+33…).',
      },
    ),
    ...problem(f.participants),
    input(f.people, 'Participants from Slack', {
      type: 'multi_users_select',
      ...(v.people.length ? { initial_users: v.people } : {}),
      placeholder: plain('Invite people by their Slack profile e-mail', limits.placeholder),
    }),
    ...problem(f.people),
    input(f.name, 'Name', textInput(v.name, { min_length: 2, max_length: 255 }), {
      hint: 'Left empty, the platform names it after its date.',
    }),
    input(
      f.startTime,
      'Starts',
      {
        type: 'datetimepicker',
        ...(v.startTime ? { initial_date_time: Math.floor(v.startTime.getTime() / 1000) } : {}),
      },
      { hint: 'In your own time zone. Left empty, the conference starts now.' },
    ),
    input(f.duration, 'Duration (minutes)', numberInput(v.duration, 1)),
    input(f.message, 'Invitation message', textInput(v.message, { multiline: true, max_length: 300 })),
    input(
      f.password,
      'Password',
      textInput(o.password, {
        max_length: 255,
        placeholder: plain(o.hasPassword ? 'Unchanged' : 'Digits, * and #', limits.placeholder),
      }),
      {
        hint: o.hasPassword
          ? 'This conference has a password. Leave empty to keep it.'
          : 'Digits, * and # only. Leave empty for none.',
      },
    ),
    input(f.options, 'Options', {
      type: 'checkboxes',
      options: Object.values(checkboxOptions),
      ...(checked.length ? { initial_options: checked.map((k) => checkboxOptions[k]) } : {}),
    }),
    input(
      f.moderator,
      'Moderator',
      { type: 'users_select', ...(v.moderator ? { initial_user: v.moderator } : {}) },
      {
        hint:
          o.mode === 'create'
            ? 'Matched to their video platform account (an admin’s link, else their e-mail). Left empty: you.'
            : 'Matched to their video platform account by e-mail. Left empty: unchanged.',
      },
    ),
    input(f.entryMode, 'Entry mode', textInput(v.entryMode), {
      hint: 'As configured on your video platform; left empty, its default.',
    }),
    input(f.reminder, 'Reminder (minutes before)', numberInput(v.reminder, 1, 60), {
      hint: 'E-mail reminder, 1 to 60 minutes before the start.',
    }),
    input(f.templateId, 'Notification template id', numberInput(v.templateId, 1)),
    input(f.language, 'Notification language', {
      type: 'static_select',
      options: languages.map((l) => option(l.value, l.label)),
      ...(v.language && languages.some((l) => l.value === v.language)
        ? { initial_option: option(v.language, languages.find((l) => l.value === v.language)?.label ?? '') }
        : {}),
    }),
    ...(o.mode === 'create'
      ? [
          input(f.serviceKey, 'Service key', textInput(v.serviceKey, { max_length: 32 }), {
            hint: 'The 32-character key of a service of your enterprise; left empty, the default service.',
          }),
        ]
      : []),
    input(f.scope, 'Scope', {
      type: 'checkboxes',
      options: [option('sso', 'Single sign-on (sso)')],
      ...(v.sso ? { initial_options: [option('sso', 'Single sign-on (sso)')] } : {}),
    }),
  ];
  return {
    type: 'modal',
    callback_id: ids.views.conferenceForm,
    title: plain(o.mode === 'create' ? 'New conference' : 'Edit conference', limits.viewTitle),
    submit: plain(o.mode === 'create' ? 'Create' : 'Save', limits.viewButton),
    close: plain('Cancel', limits.viewButton),
    private_metadata: o.metadata,
    blocks,
  };
}
