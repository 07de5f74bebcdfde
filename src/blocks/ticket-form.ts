import type { ExternalSelect, ModalView } from '@slack/types';
import type { TicketEdit, TicketFormChoices, TicketFormValues } from '../domain/ticket.js';
import { ticketStates } from '../domain/ticket-workflow.js';
import { languages } from './conference-form.js';
import { ids } from './ids.js';
import { input, numberInput, option, textInput } from './inputs.js';
import { type Block, context, plain, section } from './kit.js';
import { limits } from './limits.js';
import { type Mrkdwn, md } from './mrkdwn.js';

const f = ids.ticketForm;

export interface TicketFormOptions {
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
const checks = {
  invite: option('invite', 'Send the invitations now'),
  inviteOrganizer: option('inviteOrganizer', 'Invite the organizer too (multi-participant)'),
};

/**
 * The ticket create modal: one input per create input of the spec (recipient, phones, e-mails,
 * language, type, subject, reference, description, group, agent, send-now, templates, organizer
 * invitation, start, duration, reminder, first name, company, gender, country, service key, scopes,
 * initial state) and the channel that will follow the ticket.
 */
export function buildTicketForm(o: TicketFormOptions): ModalView {
  const v = o.values;
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
      'Post the card in (this channel follows the ticket)',
      {
        type: 'conversations_select',
        ...(v.channel ? { initial_conversation: v.channel } : { default_to_current_conversation: true }),
        filter: { include: ['public', 'private', 'mpim'], exclude_bot_users: true },
      },
      { optional: false },
    ),
    input(
      f.emails,
      'Requestor e-mails',
      textInput(v.emails.join(', '), { placeholder: plain('jane.doe@example.com', limits.placeholder) }),
      {
        hint: 'A person’s own address; not a shared mailbox (info@, support@…). E-mails or phones: at least one.',
      },
    ),
    ...problem(f.emails),
    input(
      f.phones,
      'Requestor phone numbers',
      textInput(v.phones.join(', '), { placeholder: plain('+33612345678', limits.placeholder) }),
      {
        hint: 'International form, comma separated.',
      },
    ),
    ...problem(f.phones),
    input(f.name, 'Requestor name', textInput(v.name)),
    input(f.subject, 'Subject', textInput(v.subject, { max_length: 255 })),
    input(f.description, 'Description', textInput(v.description, { multiline: true })),
    input(f.reference, 'Reference', textInput(v.reference)),
    input(f.type, 'Type', textInput(v.type)),
    input(f.groupId, 'Group', picker(ids.options.groups, o.choices.groups, v.groupId, 'Type a group’s name')),
    input(
      f.agent,
      'Agent',
      picker(ids.options.agents, o.choices.users, v.agent, 'Type a name, e-mail or login'),
      {
        hint: 'Left empty: you.',
      },
    ),
    input(f.startTime, 'Starts', {
      type: 'datetimepicker',
      ...(v.startTime ? { initial_date_time: Math.floor(v.startTime.getTime() / 1000) } : {}),
    }),
    input(f.duration, 'Duration (minutes)', numberInput(v.duration ?? 30, 1)),
    input(f.reminder, 'Reminder (minutes before)', numberInput(v.reminder, 1, 60)),
    input(f.options, 'Invitations', {
      type: 'checkboxes',
      options: Object.values(checks),
      ...(checked.length ? { initial_options: checked } : {}),
    }),
    input(f.language, 'Notification language', {
      type: 'static_select',
      options: languages.map((l) => option(l.value, l.label)),
      ...(v.language && languages.some((l) => l.value === v.language)
        ? { initial_option: option(v.language, languages.find((l) => l.value === v.language)?.label ?? '') }
        : {}),
    }),
    input(f.agentTemplateId, 'Agent notification template id', numberInput(v.agentTemplateId, 1)),
    input(f.requestorTemplateId, 'Requestor notification template id', numberInput(v.requestorTemplateId, 1)),
    input(f.firstName, 'Requestor first name', textInput(v.firstName)),
    input(f.company, 'Requestor company', textInput(v.company)),
    input(f.gender, 'Requestor gender', textInput(v.gender)),
    input(f.country, 'Requestor country', textInput(v.country, { max_length: 2 }), {
      hint: 'ISO 3166-1 alpha-2 code: FR, US, DE…',
    }),
    input(f.serviceKey, 'Service key', textInput(v.serviceKey, { max_length: 32 })),
    input(f.scopes, 'Scopes', textInput(v.scopes.join(', ')), {
      hint: 'Additional scope names, comma separated.',
    }),
    input(f.state, 'Initial state', {
      type: 'static_select',
      options: ticketStates.map((s) => option(s, s)),
      ...(v.state && (ticketStates as readonly string[]).includes(v.state)
        ? { initial_option: option(v.state, v.state) }
        : {}),
    }),
  ];
  return {
    type: 'modal',
    callback_id: ids.views.ticketForm,
    title: plain('New ticket', limits.viewTitle),
    submit: plain('Create', limits.viewButton),
    close: plain('Cancel', limits.viewButton),
    private_metadata: o.metadata,
    blocks,
  };
}

/** The edit form: the fields a ticket update changes (agent, state, reference, description, subject, group). */
export function buildTicketEditForm(o: {
  values: TicketEdit;
  choices: TicketFormChoices;
  metadata: string;
  notices?: Mrkdwn[];
}): ModalView {
  const v = o.values;
  const e = ids.ticketEdit;
  return {
    type: 'modal',
    callback_id: ids.views.ticketEdit,
    title: plain('Edit ticket', limits.viewTitle),
    submit: plain('Save', limits.viewButton),
    close: plain('Cancel', limits.viewButton),
    private_metadata: o.metadata,
    blocks: [
      ...(o.notices ?? []).map((n) => section(md`:warning: ${n}`)),
      context(md`Only the fields you change are sent to the video platform.`),
      input(e.subject, 'Subject', textInput(v.subject, { max_length: 255 })),
      input(e.description, 'Description', textInput(v.description, { multiline: true })),
      input(e.reference, 'Reference', textInput(v.reference)),
      input(e.state, 'State', {
        type: 'static_select',
        options: ticketStates.map((s) => option(s, s)),
        ...(v.state && (ticketStates as readonly string[]).includes(v.state)
          ? { initial_option: option(v.state, v.state) }
          : {}),
      }),
      input(
        e.agent,
        'Agent',
        picker(ids.options.agents, o.choices.users, v.agent, 'Type a name, e-mail or login'),
      ),
      input(
        e.groupId,
        'Group',
        picker(ids.options.groups, o.choices.groups, v.groupId, 'Type a group’s name'),
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
export function buildTicketExportForm(metadata: string): ModalView {
  const first = exportFormats[0];
  return {
    type: 'modal',
    callback_id: ids.views.ticketExport,
    title: plain('Export ticket', limits.viewTitle),
    submit: plain('Export', limits.viewButton),
    close: plain('Cancel', limits.viewButton),
    private_metadata: metadata,
    blocks: [
      input(
        'format',
        'Format',
        {
          type: 'static_select',
          options: exportFormats.map((x) => option(x.value, x.label)),
          initial_option: option(first.value, first.label),
        },
        { optional: false },
      ),
      input('timeline', 'Timeline', {
        type: 'checkboxes',
        options: [option('timeline', 'Add the timeline (list of events)')],
        initial_options: [option('timeline', 'Add the timeline (list of events)')],
      }),
      context(md`The file is posted in the ticket card’s thread.`),
    ],
  };
}
