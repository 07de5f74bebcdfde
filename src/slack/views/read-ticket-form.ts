import { ids } from '../../blocks/ids.js';
import { tPlain } from '../../blocks/text.js';
import type { TicketFormValues } from '../../domain/ticket.js';
import type { MessageKey } from '../../i18n/catalog.js';
import type { Locale } from '../../i18n/locale.js';
import { endpoints } from '../../platform/endpoints.js';
import { problemOf, viewState } from '../input/view-state.js';

const f = ids.ticketForm;
const rules = endpoints.createTicket.input.shape;

/**
 * The rules' problems the form can show, by their English (the platform client's schemas say them,
 * capitalised by `problemOf`): each is a catalog message, so it is written in the person's language.
 */
const problemKeys = [
  'ticketForm.problem.email',
  'ticketForm.problem.sharedMailbox',
  'ticketForm.problem.phone',
  'ticketForm.problem.duration',
  'ticketForm.problem.reminder',
  'ticketForm.problem.country',
  'ticketForm.problem.serviceKey',
  'ticketForm.problem.numericId',
] as const satisfies readonly MessageKey[];
const keyOfProblem = new Map<string, MessageKey>(problemKeys.map((k) => [tPlain('en', k), k]));

/** A schema's problem in `locale`: its catalog message, or (one not in the catalog) English as is, or French's "not valid". */
const problemIn = (locale: Locale, problem: string): string => {
  const key = keyOfProblem.get(problem);
  if (key) return tPlain(locale, key);
  return locale === 'en' ? problem : tPlain(locale, 'ticketForm.problem.invalid');
};

export type TicketFormRead =
  | { ok: true; values: TicketFormValues }
  | { ok: false; errors: Record<string, string>; values: TicketFormValues };

/**
 * Reads the ticket form and checks every rule the spec states (requestor e-mails or phones, no
 * shared mailbox, international phones, ISO country, duration, reminder, service key…) with the
 * schemas the platform client applies, so errors show under their inputs, in the person's `locale`.
 */
export function readTicketForm(rawState: unknown, locale: Locale): TicketFormRead {
  const { get, str, int, list, date, chosen, option } = viewState(rawState);
  const invitations = chosen(f.options);
  const values: TicketFormValues = {
    channel: get(f.channel)?.selected_conversation ?? undefined,
    name: str(f.name),
    phones: list(f.phones),
    emails: list(f.emails),
    language: option(f.language),
    type: str(f.type),
    subject: str(f.subject),
    reference: str(f.reference),
    description: str(f.description),
    groupId: option(f.groupId),
    agent: option(f.agent),
    invite: invitations.has('invite'),
    inviteOrganizer: invitations.has('inviteOrganizer'),
    agentTemplateId: int(f.agentTemplateId),
    requestorTemplateId: int(f.requestorTemplateId),
    startTime: date(f.startTime),
    duration: int(f.duration),
    reminder: int(f.reminder),
    firstName: str(f.firstName),
    company: str(f.company),
    gender: str(f.gender),
    country: str(f.country)?.toUpperCase(),
    serviceKey: str(f.serviceKey),
    scopes: list(f.scopes),
    state: option(f.state),
  };
  const errors: Record<string, string> = {};
  const check = (blockId: string, problem: string | undefined) => {
    if (problem) errors[blockId] = problemIn(locale, problem);
  };
  if (!values.channel) errors[f.channel] = tPlain(locale, 'ticketForm.problem.channel');
  if (values.emails.length === 0 && values.phones.length === 0)
    errors[f.emails] = tPlain(locale, 'ticketForm.problem.contact');
  if (values.emails.length) check(f.emails, problemOf(rules.emails, values.emails, 'en'));
  if (values.phones.length) check(f.phones, problemOf(rules.phones, values.phones, 'en'));
  if (values.duration !== undefined) check(f.duration, problemOf(rules.duration, values.duration, 'en'));
  if (values.reminder !== undefined) check(f.reminder, problemOf(rules.reminder, values.reminder, 'en'));
  if (values.country) check(f.country, problemOf(rules.country, values.country, 'en'));
  if (values.serviceKey) check(f.serviceKey, problemOf(rules.serviceKey, values.serviceKey, 'en'));
  for (const k of ['agentTemplateId', 'requestorTemplateId'] as const)
    if (values[k] !== undefined) check(f[k], problemOf(rules[k], values[k], 'en'));
  return Object.keys(errors).length ? { ok: false, errors, values } : { ok: true, values };
}
