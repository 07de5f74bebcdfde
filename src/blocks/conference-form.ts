import type { ModalView } from '@slack/types';
import type { ConferenceFormValues } from '../domain/conference.js';
import type { ConferenceTextProblem } from '../domain/conference-text.js';
import { type WhenFault, whenExamples } from '../domain/time.js';
import type { Locale } from '../i18n/locale.js';
import { ids } from './ids.js';
import { input, numberInput, option, textInput } from './inputs.js';
import { type Block, context, plain, section } from './kit.js';
import { limits } from './limits.js';
import { type Mrkdwn, md } from './mrkdwn.js';
import { t, tPlain } from './text.js';

const f = ids.conferenceForm;

export interface ConferenceFormOptions {
  /** The person's language (a modal: theirs alone). */
  locale: Locale;
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

const shownNotices = (locale: Locale, notices: Mrkdwn[]): Mrkdwn[] =>
  notices.length <= maxNotices
    ? notices
    : [
        ...notices.slice(0, maxNotices - 1),
        t(locale, 'conference.form.moreProblems', { count: notices.length - maxNotices + 1 }),
      ];

/** Notification template languages the platform is known to have (platform-facts.md). */
export const languages = [
  { value: 'en', label: 'English' },
  { value: 'fr', label: 'Français' },
] as const;

const checkboxOptionsIn = (locale: Locale) => ({
  moderation: option('moderation', tPlain(locale, 'conference.form.optModeration')),
  open: option('open', tPlain(locale, 'conference.form.optOpen')),
  invite: option('invite', tPlain(locale, 'conference.form.optInvite')),
});

/**
 * The create/edit modal: one input per create parameter of the spec (participants as text and as
 * Slack people, name, start time, duration, message, password, options, entry mode, reminder,
 * template, language, moderator, service key, scope) and the channel for the card.
 */
export function buildConferenceForm(o: ConferenceFormOptions): ModalView {
  const v = o.values;
  const { locale } = o;
  const l = (key: Parameters<typeof tPlain>[1]) => tPlain(locale, key);
  const checkboxOptions = checkboxOptionsIn(locale);
  const sso = option('sso', l('conference.form.sso'));
  const checked = (['moderation', 'open', 'invite'] as const).filter((k) =>
    k === 'invite' ? v.invite !== false : v[k] === true,
  );
  const problem = (blockId: string): Block[] => {
    const p = o.problems?.[blockId];
    return p ? [context(md`:warning: ${p}`)] : [];
  };
  const blocks: Block[] = [
    ...shownNotices(locale, o.notices ?? []).map((n) => section(md`:warning: ${n}`)),
    ...(o.mode === 'create'
      ? [
          input(
            f.channel,
            l('conference.form.channel'),
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
      l('conference.form.participants'),
      textInput(v.participants.join(', '), {
        multiline: true,
        placeholder: plain('alice@example.com, +33612345678', limits.placeholder),
      }),
      {
        hint: l('conference.form.participantsHint'),
      },
    ),
    ...problem(f.participants),
    input(f.people, l('conference.form.people'), {
      type: 'multi_users_select',
      ...(v.people.length ? { initial_users: v.people } : {}),
      placeholder: plain(l('conference.form.peoplePlaceholder'), limits.placeholder),
    }),
    ...problem(f.people),
    input(f.name, l('conference.form.name'), textInput(v.name, { min_length: 2, max_length: 255 }), {
      hint: l('conference.form.nameHint'),
    }),
    input(
      f.startTime,
      l('conference.form.start'),
      {
        type: 'datetimepicker',
        ...(v.startTime ? { initial_date_time: Math.floor(v.startTime.getTime() / 1000) } : {}),
      },
      { hint: l('conference.form.startHint') },
    ),
    input(f.duration, l('conference.form.duration'), numberInput(v.duration, 1)),
    input(
      f.message,
      l('conference.form.message'),
      textInput(v.message, { multiline: true, max_length: 300 }),
    ),
    input(
      f.password,
      l('conference.form.password'),
      textInput(o.password, {
        max_length: 255,
        placeholder: plain(
          o.hasPassword ? l('conference.form.passwordUnchanged') : l('conference.form.passwordDigits'),
          limits.placeholder,
        ),
      }),
      {
        hint: o.hasPassword ? l('conference.form.passwordHintKept') : l('conference.form.passwordHint'),
      },
    ),
    input(f.options, l('conference.form.options'), {
      type: 'checkboxes',
      options: Object.values(checkboxOptions),
      ...(checked.length ? { initial_options: checked.map((k) => checkboxOptions[k]) } : {}),
    }),
    input(
      f.moderator,
      l('conference.form.moderator'),
      { type: 'users_select', ...(v.moderator ? { initial_user: v.moderator } : {}) },
      {
        hint:
          o.mode === 'create'
            ? l('conference.form.moderatorHintCreate')
            : l('conference.form.moderatorHintEdit'),
      },
    ),
    input(f.entryMode, l('conference.form.entryMode'), textInput(v.entryMode), {
      hint: l('conference.form.entryModeHint'),
    }),
    input(f.reminder, l('conference.form.reminder'), numberInput(v.reminder, 1, 60), {
      hint: l('conference.form.reminderHint'),
    }),
    input(f.templateId, l('conference.form.templateId'), numberInput(v.templateId, 1)),
    input(f.language, l('conference.form.language'), {
      type: 'static_select',
      options: languages.map((l) => option(l.value, l.label)),
      ...(v.language && languages.some((l) => l.value === v.language)
        ? { initial_option: option(v.language, languages.find((l) => l.value === v.language)?.label ?? '') }
        : {}),
    }),
    ...(o.mode === 'create'
      ? [
          input(f.serviceKey, l('conference.form.serviceKey'), textInput(v.serviceKey, { max_length: 32 }), {
            hint: l('conference.form.serviceKeyHint'),
          }),
        ]
      : []),
    input(f.scope, l('conference.form.scope'), {
      type: 'checkboxes',
      options: [sso],
      ...(v.sso ? { initial_options: [sso] } : {}),
    }),
  ];
  return {
    type: 'modal',
    callback_id: ids.views.conferenceForm,
    title: plain(
      l(o.mode === 'create' ? 'conference.form.titleCreate' : 'conference.form.titleEdit'),
      limits.viewTitle,
    ),
    submit: plain(
      l(o.mode === 'create' ? 'conference.form.create' : 'conference.form.save'),
      limits.viewButton,
    ),
    close: plain(l('conference.form.cancel'), limits.viewButton),
    private_metadata: o.metadata,
    blocks,
  };
}

/** Why a time phrase cannot be read (`domain/time.ts`'s code), in `locale`, with the phrases it reads. */
export const whenFaultText = (locale: Locale, f: WhenFault): Mrkdwn =>
  t(
    locale,
    f.why === 'noSuchDate'
      ? 'conference.text.whenNoSuchDate'
      : f.why === 'noClock'
        ? 'conference.text.whenNoClock'
        : 'conference.text.when',
    { text: f.text, examples: whenExamples },
  );

/** What a create command's words cannot be read as (`domain/conference-text.ts`'s codes), in `locale`. */
export function conferenceTextProblem(locale: Locale, p: ConferenceTextProblem): Mrkdwn {
  switch (p.kind) {
    case 'unclosedQuote':
      return t(locale, 'conference.text.unclosedQuote');
    case 'twoNames':
      return t(locale, 'conference.text.twoNames');
    case 'notEmail':
      return t(locale, 'conference.text.notEmail', { value: p.value });
    case 'twoTimes':
      return t(locale, 'conference.text.twoTimes', { value: p.value });
    case 'notPhone':
      return t(locale, 'conference.text.notPhone', { value: p.value });
    case 'twoDurations':
      return t(locale, 'conference.text.twoDurations');
    case 'when':
      return whenFaultText(locale, p.fault);
  }
}
