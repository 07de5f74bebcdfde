import type { ExternalSelect, ModalView } from '@slack/types';
import type { TicketEdit, TicketFormChoices, TicketFormValues } from '../domain/ticket.js';
import { ticketStates } from '../domain/ticket-workflow.js';
import type { Locale } from '../i18n/locale.js';
import { languages } from './conference-form.js';
import { ids } from './ids.js';
import { input, numberInput, option, textInput } from './inputs.js';
import { type Block, context, plain, section } from './kit.js';
import { limits } from './limits.js';
import { type Mrkdwn, md } from './mrkdwn.js';
import { t, tPlain } from './text.js';

const f = ids.ticketForm;

export interface TicketFormOptions {
  /** The person's language. */
  locale: Locale;
  values: TicketFormValues;
  choices: TicketFormChoices;
  metadata: string;
  notices?: Mrkdwn[];
  problems?: Record<string, Mrkdwn>;
}

/**
 * A type-ahead menu of the enterprise's people or groups (served by the options handler from the
 * directory: no cap at 100), prefilled with `initial` under its known label. `choices` holds the
 * labels of the prefilled ids only.
 */
const picker = (
  actionId: string,
  choices: { id: string; name: string }[],
  initial: string | undefined,
  placeholder: string,
): ExternalSelect => {
  const known = choices.find((c) => c.id === initial);
  return {
    type: 'external_select',
    action_id: actionId,
    placeholder: plain(placeholder, limits.placeholder),
    // Opening the menu lists the first names at once; typing narrows them.
    min_query_length: 0,
    ...(initial && initial.length <= limits.optionValue
      ? { initial_option: option(initial, known?.name ?? `#${initial}`) }
      : {}),
  };
};
const checksIn = (locale: Locale) => ({
  invite: option('invite', tPlain(locale, 'ticketForm.invite')),
  inviteOrganizer: option('inviteOrganizer', tPlain(locale, 'ticketForm.inviteOrganizer')),
});

/** The ticket states of the spec as a menu, each under its label in `locale`; `initial` chosen when it is one. */
const stateMenu = (locale: Locale, initial: string | undefined) => {
  const of = (s: string) => option(s, tPlain(locale, 'ticketForm.stateLabel', { state: s }));
  return {
    type: 'static_select' as const,
    options: ticketStates.map(of),
    ...(initial && (ticketStates as readonly string[]).includes(initial)
      ? { initial_option: of(initial) }
      : {}),
  };
};

/**
 * The ticket create modal: one input per create input of the spec (recipient, phones, e-mails,
 * language, type, subject, reference, description, group, agent, send-now, templates, organizer
 * invitation, start, duration, reminder, first name, company, gender, country, service key, scopes,
 * initial state) and the channel that will follow the ticket.
 */
export function buildTicketForm(o: TicketFormOptions): ModalView {
  const v = o.values;
  const { locale } = o;
  const l = (key: Parameters<typeof tPlain>[1]) => tPlain(locale, key);
  const checks = checksIn(locale);
  const problem = (blockId: string): Block[] => {
    const p = o.problems?.[blockId];
    return p ? [context(md`:warning: ${p}`)] : [];
  };
  const checked = [
    v.invite !== false ? checks.invite : undefined,
    v.inviteOrganizer ? checks.inviteOrganizer : undefined,
  ].filter((x) => x !== undefined);
  const blocks: Block[] = [
    ...(o.notices ?? []).map((n) => section(md`:warning: ${n}`)),
    input(
      f.channel,
      l('ticketForm.channel'),
      {
        type: 'conversations_select',
        ...(v.channel ? { initial_conversation: v.channel } : { default_to_current_conversation: true }),
        filter: { include: ['public', 'private', 'mpim'], exclude_bot_users: true },
      },
      { optional: false },
    ),
    input(
      f.emails,
      l('ticketForm.emails'),
      textInput(v.emails.join(', '), { placeholder: plain('jane.doe@example.com', limits.placeholder) }),
      {
        hint: l('ticketForm.emailsHint'),
      },
    ),
    ...problem(f.emails),
    input(
      f.phones,
      l('ticketForm.phones'),
      textInput(v.phones.join(', '), { placeholder: plain('+33612345678', limits.placeholder) }),
      {
        hint: l('ticketForm.phonesHint'),
      },
    ),
    ...problem(f.phones),
    input(f.name, l('ticketForm.name'), textInput(v.name)),
    input(f.subject, l('ticketForm.subject'), textInput(v.subject, { max_length: 255 })),
    input(f.description, l('ticketForm.description'), textInput(v.description, { multiline: true })),
    input(f.reference, l('ticketForm.reference'), textInput(v.reference)),
    input(f.type, l('ticketForm.type'), textInput(v.type)),
    input(
      f.groupId,
      l('ticketForm.group'),
      picker(ids.options.groups, o.choices.groups, v.groupId, l('ticketForm.groupPlaceholder')),
    ),
    input(
      f.agent,
      l('ticketForm.agent'),
      picker(ids.options.agents, o.choices.users, v.agent, l('ticketForm.agentPlaceholder')),
      {
        hint: l('ticketForm.agentHint'),
      },
    ),
    input(f.startTime, l('ticketForm.start'), {
      type: 'datetimepicker',
      ...(v.startTime ? { initial_date_time: Math.floor(v.startTime.getTime() / 1000) } : {}),
    }),
    input(f.duration, l('ticketForm.duration'), numberInput(v.duration ?? 30, 1)),
    input(f.reminder, l('ticketForm.reminder'), numberInput(v.reminder, 1, 60)),
    input(f.options, l('ticketForm.invitations'), {
      type: 'checkboxes',
      options: Object.values(checks),
      ...(checked.length ? { initial_options: checked } : {}),
    }),
    input(f.language, l('ticketForm.language'), {
      type: 'static_select',
      options: languages.map((l) => option(l.value, l.label)),
      ...(v.language && languages.some((l) => l.value === v.language)
        ? { initial_option: option(v.language, languages.find((l) => l.value === v.language)?.label ?? '') }
        : {}),
    }),
    input(f.agentTemplateId, l('ticketForm.agentTemplate'), numberInput(v.agentTemplateId, 1)),
    input(f.requestorTemplateId, l('ticketForm.requestorTemplate'), numberInput(v.requestorTemplateId, 1)),
    input(f.firstName, l('ticketForm.firstName'), textInput(v.firstName)),
    input(f.company, l('ticketForm.company'), textInput(v.company)),
    input(f.gender, l('ticketForm.gender'), textInput(v.gender)),
    input(f.country, l('ticketForm.country'), textInput(v.country, { max_length: 2 }), {
      hint: l('ticketForm.countryHint'),
    }),
    input(f.serviceKey, l('ticketForm.serviceKey'), textInput(v.serviceKey, { max_length: 32 })),
    input(f.scopes, l('ticketForm.scopes'), textInput(v.scopes.join(', ')), {
      hint: l('ticketForm.scopesHint'),
    }),
    input(f.state, l('ticketForm.initialState'), stateMenu(locale, v.state)),
  ];
  return {
    type: 'modal',
    callback_id: ids.views.ticketForm,
    title: plain(l('ticketForm.title'), limits.viewTitle),
    submit: plain(l('ticketForm.submit'), limits.viewButton),
    close: plain(l('ticketForm.cancel'), limits.viewButton),
    private_metadata: o.metadata,
    blocks,
  };
}

/** The edit form: the fields a ticket update changes (agent, state, reference, description, subject, group). */
export function buildTicketEditForm(o: {
  /** The person's language. */
  locale: Locale;
  values: TicketEdit;
  choices: TicketFormChoices;
  metadata: string;
  notices?: Mrkdwn[];
}): ModalView {
  const v = o.values;
  const e = ids.ticketEdit;
  const { locale } = o;
  const l = (key: Parameters<typeof tPlain>[1]) => tPlain(locale, key);
  return {
    type: 'modal',
    callback_id: ids.views.ticketEdit,
    title: plain(l('ticketEdit.title'), limits.viewTitle),
    submit: plain(l('ticketEdit.submit'), limits.viewButton),
    close: plain(l('ticketForm.cancel'), limits.viewButton),
    private_metadata: o.metadata,
    blocks: [
      ...(o.notices ?? []).map((n) => section(md`:warning: ${n}`)),
      context(t(locale, 'ticketEdit.onlyChanged')),
      input(e.subject, l('ticketForm.subject'), textInput(v.subject, { max_length: 255 })),
      input(e.description, l('ticketForm.description'), textInput(v.description, { multiline: true })),
      input(e.reference, l('ticketForm.reference'), textInput(v.reference)),
      input(e.state, l('ticketEdit.state'), stateMenu(locale, v.state)),
      input(
        e.agent,
        l('ticketForm.agent'),
        picker(ids.options.agents, o.choices.users, v.agent, l('ticketForm.agentPlaceholder')),
      ),
      input(
        e.groupId,
        l('ticketForm.group'),
        picker(ids.options.groups, o.choices.groups, v.groupId, l('ticketForm.groupPlaceholder')),
      ),
    ],
  };
}

/** Export formats offered (the spec does not list them; the simulator, like the service, knows these). */
export const exportFormats = [
  { value: 'json', label: 'JSON' },
  { value: 'csv', label: 'CSV' },
] as const;

/** The export modal: a format, and whether to add the timeline. */
export function buildTicketExportForm(locale: Locale, metadata: string): ModalView {
  const first = exportFormats[0];
  const l = (key: Parameters<typeof tPlain>[1]) => tPlain(locale, key);
  const timeline = option('timeline', l('ticketExport.addTimeline'));
  return {
    type: 'modal',
    callback_id: ids.views.ticketExport,
    title: plain(l('ticketExport.title'), limits.viewTitle),
    submit: plain(l('ticketExport.submit'), limits.viewButton),
    close: plain(l('ticketForm.cancel'), limits.viewButton),
    private_metadata: metadata,
    blocks: [
      input(
        'format',
        l('ticketExport.format'),
        {
          type: 'static_select',
          options: exportFormats.map((x) => option(x.value, x.label)),
          initial_option: option(first.value, first.label),
        },
        { optional: false },
      ),
      input('timeline', l('ticketExport.timeline'), {
        type: 'checkboxes',
        options: [timeline],
        initial_options: [timeline],
      }),
      context(t(locale, 'ticketExport.where')),
    ],
  };
}
