import type { ConferenceRecord } from '../platform/schemas.js';
import { personLabel } from './person-label.js';

/*
 * A conference as Slack shows it and as forms edit it: the view models the services return and the
 * builders in src/blocks render, and the mappings from the platform's record.
 */

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

/** What the form shows: prefilled from a command's text, from the conference being edited, or from a retry. */
export interface ConferenceFormValues {
  channel?: string | undefined;
  participants: string[];
  people: string[];
  name?: string | undefined;
  startTime?: Date | undefined;
  duration?: number | undefined;
  message?: string | undefined;
  moderation?: boolean | undefined;
  open?: boolean | undefined;
  invite?: boolean | undefined;
  entryMode?: string | undefined;
  reminder?: number | undefined;
  templateId?: number | undefined;
  language?: string | undefined;
  moderator?: string | undefined;
  serviceKey?: string | undefined;
  sso?: boolean | undefined;
}

/** Which list a page belongs to; carried in the page buttons so Next/Previous re-run the same query. */
export interface ListQuery {
  filter: 'upcoming' | 'past' | 'all';
  search?: string | undefined;
  offset: number;
}

/** Conferences per page of `/conference list`: two blocks each, well under 50 blocks a message. */
export const listPageSize = 10;

/** A recording or snapshot as the media list shows it. */
export interface MediaSummary {
  id: string;
  type?: string | undefined;
  title?: string | undefined;
  created?: Date | undefined;
  size?: number | undefined;
  format?: string | undefined;
}

function participantsOf(p: ConferenceRecord['participants']): string[] {
  if (!p) return [];
  const list = Array.isArray(p) ? p : p.split(',');
  return list
    .map((x) => {
      if (typeof x === 'string') return x.trim();
      const o = (x ?? {}) as Record<string, unknown>;
      return String(o.email ?? o.phone ?? o.name ?? '');
    })
    .filter(Boolean);
}

/**
 * The card's view of a platform record. Its join link comes read (platform/join-links.ts, which the
 * service calls: reading it records where it was found), so this stays a pure mapping.
 */
export function summarize(r: ConferenceRecord, joinUrl?: string): ConferenceSummary {
  return {
    id: String(r.id),
    name: r.name ?? `Conference ${r.id}`,
    roomName: r.room_name,
    start: r.start_time,
    duration: r.duration,
    status: r.status,
    participants: participantsOf(r.participants),
    moderator: personLabel(r.moderator),
    joinUrl,
  };
}

/** The form values a conference is edited from. */
export function formValuesOf(r: ConferenceRecord): ConferenceFormValues {
  const extra = r as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return {
    participants: participantsOf(r.participants),
    people: [],
    name: r.name,
    startTime: r.start_time,
    duration: r.duration,
    message: (extra.message as string | null | undefined) ?? undefined,
    moderation: extra.moderation === true,
    open: extra.open === true,
    // An edit does not re-send invitations unless the person asks for it.
    invite: false,
    entryMode: (extra.entry_mode as string | null | undefined) ?? undefined,
    reminder: num(extra.reminder),
    templateId: num(extra.template_id),
    language: (extra.language as string | null | undefined) ?? undefined,
  };
}
