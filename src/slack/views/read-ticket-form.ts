import { ids } from '../../blocks/ids.js';
import type { TicketFormValues } from '../../domain/ticket.js';
import { endpoints } from '../../platform/endpoints.js';
import { problemOf, viewState } from '../input/view-state.js';

const f = ids.ticketForm;
const rules = endpoints.createTicket.input.shape;

export type TicketFormRead =
  | { ok: true; values: TicketFormValues }
  | { ok: false; errors: Record<string, string>; values: TicketFormValues };

/**
 * Reads the ticket form and checks every rule the spec states (requestor e-mails or phones, no
 * shared mailbox, international phones, ISO country, duration, reminder, service key…) with the
 * schemas the platform client applies, so errors show under their inputs.
 */
export function readTicketForm(rawState: unknown): TicketFormRead {
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
    if (problem) errors[blockId] = problem;
  };
  if (!values.channel) errors[f.channel] = 'Choose the channel that will follow the ticket.';
  if (values.emails.length === 0 && values.phones.length === 0)
    errors[f.emails] = 'Give at least one e-mail or phone number of the requestor.';
  if (values.emails.length) check(f.emails, problemOf(rules.emails, values.emails));
  if (values.phones.length) check(f.phones, problemOf(rules.phones, values.phones));
  if (values.duration !== undefined) check(f.duration, problemOf(rules.duration, values.duration));
  if (values.reminder !== undefined) check(f.reminder, problemOf(rules.reminder, values.reminder));
  if (values.country) check(f.country, problemOf(rules.country, values.country));
  if (values.serviceKey) check(f.serviceKey, problemOf(rules.serviceKey, values.serviceKey));
  for (const k of ['agentTemplateId', 'requestorTemplateId'] as const)
    if (values[k] !== undefined) check(f[k], problemOf(rules[k], values[k]));
  return Object.keys(errors).length ? { ok: false, errors, values } : { ok: true, values };
}
