import type { TicketRecord } from '../platform/schemas.js';
import { personLabel } from './person-label.js';

/*
 * A ticket as Slack shows it and as forms edit it: the view models the services return and the
 * builders in src/blocks render, and the mapping from the platform's record.
 */

/** A ticket as its card shows it, mapped from the platform record (never from what the bot remembers). */
export interface TicketSummary {
  id: string;
  reference?: string | undefined;
  subject?: string | undefined;
  description?: string | undefined;
  state?: string | undefined;
  type?: string | undefined;
  requestor: { name?: string | undefined; emails: string[]; phones: string[] };
  agent?: { id?: string | undefined; label: string } | undefined;
  group?: { id: string; name?: string | undefined } | undefined;
  start?: Date | undefined;
  duration?: number | undefined;
  modified?: Date | undefined;
  agentUrl?: string | undefined;
  guestUrl?: string | undefined;
}

/** A media item as the ticket's media list shows it. */
export interface TicketMediaItem {
  id: string;
  type?: string | undefined;
  title?: string | undefined;
  filename?: string | undefined;
  size?: number | undefined;
  created?: Date | undefined;
}

/** What the ticket form shows: prefilled from `/ticket new …`, a message, or a failed try. */
export interface TicketFormValues {
  channel?: string | undefined;
  name?: string | undefined;
  phones: string[];
  emails: string[];
  language?: string | undefined;
  type?: string | undefined;
  subject?: string | undefined;
  reference?: string | undefined;
  description?: string | undefined;
  groupId?: string | undefined;
  agent?: string | undefined;
  invite?: boolean | undefined;
  inviteOrganizer?: boolean | undefined;
  agentTemplateId?: number | undefined;
  requestorTemplateId?: number | undefined;
  startTime?: Date | undefined;
  duration?: number | undefined;
  reminder?: number | undefined;
  firstName?: string | undefined;
  company?: string | undefined;
  gender?: string | undefined;
  country?: string | undefined;
  serviceKey?: string | undefined;
  scopes: string[];
  state?: string | undefined;
}

/**
 * The labels of the group and agent a form is prefilled with (the menus are type-ahead, served from
 * the directory: no list of everyone travels with the form).
 */
export interface TicketFormChoices {
  groups: { id: string; name: string }[];
  users: { id: string; name: string }[];
}

/** The fields the edit form may change (spec: ticket update). */
export interface TicketEdit {
  subject?: string | undefined;
  description?: string | undefined;
  reference?: string | undefined;
  state?: string | undefined;
  agent?: string | undefined;
  groupId?: string | undefined;
}

/** A ticket's fields as the edit form shows them and as an edit compares them. */
export function editableFields(t: TicketSummary): Record<keyof TicketEdit, string | undefined> {
  return {
    subject: t.subject,
    description: t.description,
    reference: t.reference,
    state: t.state,
    agent: t.agent?.id,
    groupId: t.group?.id,
  };
}

/** A ticket's join links, as the platform's reader found them on the record. */
export interface TicketJoinLinks {
  agentUrl?: string | undefined;
  guestUrl?: string | undefined;
}

/**
 * The card's view of a platform ticket record. The join links come read (platform/join-links.ts reads
 * them, recording where it found them: a platform-boundary concern the service owns), so this stays
 * a pure mapping.
 */
export function summarizeTicket(
  r: TicketRecord,
  groupNames: Map<string, string> = new Map(),
  links: TicketJoinLinks = {},
): TicketSummary {
  const groupId = r.group_id === undefined ? undefined : String(r.group_id);
  return {
    id: String(r.id),
    reference: r.reference,
    subject: r.subject,
    description: r.description,
    state: r.state,
    type: r.type,
    requestor: {
      name: r.requestor?.name ?? undefined,
      emails: r.requestor?.email ?? [],
      phones: r.requestor?.phone ?? [],
    },
    agent: personLabel(r.agent),
    group: groupId === undefined ? undefined : { id: groupId, name: groupNames.get(groupId) },
    start: r.start_time,
    duration: r.duration,
    modified: r.modified,
    agentUrl: links.agentUrl,
    guestUrl: links.guestUrl,
  };
}
