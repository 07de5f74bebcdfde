import { z } from 'zod';
import type { PlatformFindings } from './findings.js';
import {
  anyAnswer,
  calendarDate,
  conferenceRecord,
  country,
  email,
  exportResource,
  groupRecord,
  idAnswer,
  intId,
  listOfRecords,
  type MeRecord,
  mediaRecord,
  meRecord,
  paging,
  participants,
  phone,
  phones,
  reportTime,
  serviceKey,
  ssoScope,
  statisticsRecord,
  ticketEmails,
  ticketEventRecord,
  ticketRecord,
  ticketState,
  ticketsReport,
  tokenAnswer,
  userRecord,
  userRef,
  utcDateTime,
} from './schemas.js';

/*
 * THE endpoint table: every operation of platform-api.md, with its wire names. The client's methods
 * are derived from it (client.ts), so a wrong path or parameter name is a one-line fix here.
 *
 * - `path`: `{name}` segments are filled from the input field of the same name; every other input
 *   field goes in the query string (spec convention 1), under its `wire` name when one is given.
 * - `inferred`: what platform-facts.md marks as not published (ticket paths and parameter names);
 *   the value says what was guessed.
 * - `cache`: reads that many handlers repeat, cached briefly under that tag; `invalidates`: tags a
 *   write makes stale.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface EndpointSpec {
  method: HttpMethod;
  path: string;
  input: z.ZodObject;
  /** Response schema, or 'stream' for binary downloads handed to the caller unbuffered. */
  output: z.ZodType | 'stream';
  wire?: Record<string, string>;
  inferred?: string;
  /** false for the only public operation, password reset. */
  auth?: false;
  cache?: string;
  invalidates?: readonly string[];
  /** Looks at a fresh answer (not a cached one) and records what it teaches in `platform.findings`. */
  observe?: (output: never, findings: PlatformFindings) => void;
}

const endpoint = <const E extends EndpointSpec>(e: E): E => e;

const bool = z.boolean({ error: 'expected true or false' });
const minutes = z.number({ error: 'expected a number of minutes' }).int('expected whole minutes');

/** Writable conference fields shared by create and update (spec 4.1). */
export const conferenceFields = {
  name: z.string().min(2, 'must be 2 to 255 characters').max(255, 'must be 2 to 255 characters').optional(),
  message: z.string().max(300, 'must be at most 300 characters').optional(),
  password: z
    .string()
    .max(255, 'must be at most 255 characters')
    .regex(/^[0-9*#]*$/, 'may contain only digits, * and #')
    .optional(),
  moderation: bool.optional(),
  entryMode: z.string().min(1).optional(),
  startTime: utcDateTime.optional(),
  open: bool.optional(),
  duration: minutes.min(1, 'must be at least 1 minute').optional(),
  reminder: minutes.min(1, 'must be 1 to 60 minutes').max(60, 'must be 1 to 60 minutes').optional(),
  templateId: z.number().int().positive().optional(),
  language: z.string().min(2).optional(),
  invite: bool.optional(),
  moderator: userRef.optional(),
  scope: ssoScope.optional(),
};

/** Filters the conference and media lists share: status, paging, a date window, text search, sort. */
const listFilters = {
  status: z.string().optional(),
  ...paging,
  since: utcDateTime.optional(),
  until: utcDateTime.optional(),
  search: z.string().optional(),
  orderby: z.string().optional(),
  order: z.enum(['asc', 'desc']).optional(),
};

/** Media list filters (spec 4.3), shared by the media, conference-media and ticket-media lists. */
const mediaFilters = {
  ...listFilters,
  mediaType: z.string().optional(),
  tag: z.string().optional(),
  user: userRef.optional(),
  userGroup: intId.optional(),
  sourceType: z.union([z.string(), z.number().int()]).transform(String).optional(),
};
const mediaFilterWire = { mediaType: 'media_type', userGroup: 'user_group', sourceType: 'source_type' };

const ticketUpdatable = {
  agent: userRef.optional(),
  state: ticketState.optional(),
  reference: z.string().optional(),
  description: z.string().optional(),
  subject: z.string().optional(),
  groupId: intId.optional(),
};

const atLeastOne =
  (a: string, b: string, message: string) => (v: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const has = (k: string) => {
      const x = v[k];
      return Array.isArray(x) ? x.length > 0 : x !== undefined && x !== '';
    };
    if (!has(a) && !has(b)) ctx.addIssue({ code: 'custom', path: [a], message });
  };

export const endpoints = {
  // ----- authentication (platform-facts.md) -----
  createToken: endpoint({
    method: 'POST',
    path: '/api/v3/token',
    auth: false,
    input: z.object({
      grantType: z.string().default('password'),
      username: z.string().min(1),
      password: z.string().min(1),
    }),
    wire: { grantType: 'grant_type' },
    output: tokenAnswer,
  }),
  revokeToken: endpoint({
    method: 'POST',
    path: '/api/v3/token/revoke',
    input: z.object({}),
    output: anyAnswer,
  }),

  // ----- conferences (4.1) -----
  createConference: endpoint({
    method: 'POST',
    path: '/api/v3/conferences',
    input: z.object({ participants, ...conferenceFields, serviceKey: serviceKey.optional() }),
    wire: { serviceKey: 'service_key' },
    output: conferenceRecord,
  }),
  updateConference: endpoint({
    method: 'PUT',
    path: '/api/v3/conferences/{conferenceId}',
    input: z.object({ conferenceId: userRef, participants: participants.optional(), ...conferenceFields }),
    output: anyAnswer,
  }),
  deleteConference: endpoint({
    method: 'DELETE',
    path: '/api/v3/conferences/{conferenceId}',
    input: z.object({ conferenceId: userRef }),
    output: anyAnswer,
  }),
  listConferences: endpoint({
    method: 'GET',
    path: '/api/v3/conferences',
    input: z.object({
      ...listFilters,
      tags: z.string().optional(),
      moderator: userRef.optional(),
      user: intId.optional(),
      scopes: z.array(z.enum(['participant', 'media'])).optional(),
      serviceKey: serviceKey.optional(),
    }),
    wire: { serviceKey: 'service_key' },
    output: listOfRecords(conferenceRecord),
  }),
  /** By id or by room name: the same path segment accepts both. */
  getConference: endpoint({
    method: 'GET',
    path: '/api/v3/conferences/{conferenceId}',
    inferred: 'the join-link field (url, joinLink, join_url… read by join-links.ts: tolerated)',
    input: z.object({ conferenceId: userRef, scope: ssoScope.optional() }),
    output: conferenceRecord,
  }),
  listConferenceMedias: endpoint({
    method: 'GET',
    path: '/api/v3/conferences/{conferenceId}/medias',
    input: z.object({ conferenceId: intId, ...mediaFilters }),
    wire: mediaFilterWire,
    output: listOfRecords(mediaRecord),
  }),

  // ----- enterprises, users, groups (4.2) -----
  listEnterpriseUsers: endpoint({
    method: 'GET',
    path: '/api/v3/enterprises/{enterpriseId}/users',
    input: z.object({ enterpriseId: intId, ...paging }),
    output: listOfRecords(userRecord),
    cache: 'users',
  }),
  createUser: endpoint({
    method: 'POST',
    path: '/api/v3/users',
    input: z
      .object({
        username: z.string().min(1, 'is required'),
        password: z.string().min(1, 'is required'),
        email: email.optional(),
        cellPhone: phone.optional(),
        firstName: z.string().optional(),
        lastName: z.string().optional(),
        enterpriseId: intId.optional(),
      })
      .superRefine(atLeastOne('email', 'cellPhone', 'give an e-mail or a cell phone number')),
    wire: { cellPhone: 'cell_phone' },
    output: idAnswer,
    invalidates: ['users', 'groups'],
  }),
  updateUser: endpoint({
    method: 'PUT',
    path: '/api/v3/users',
    input: z.object({
      userId: intId,
      firstName: z.string().optional(),
      lastName: z.string().optional(),
      avatar: z.string().optional(),
      phoneNumber: z.string().optional(),
      jobTitle: z.string().optional(),
      audioOnly: z.number().int().optional(),
      clickToChat: z.number().int().optional(),
      maxOngoingChat: z.number().int().optional(),
    }),
    /** Capital U, as the spec writes it. */
    wire: { userId: 'Userid' },
    output: idAnswer,
    invalidates: ['users', 'groups', 'me'],
  }),
  deleteUser: endpoint({
    method: 'DELETE',
    path: '/api/v3/users',
    input: z.object({ userId: intId }),
    output: anyAnswer,
    invalidates: ['users', 'groups'],
  }),
  getMe: endpoint({
    method: 'GET',
    path: '/api/v3/users/me',
    input: z.object({}),
    output: meRecord,
    cache: 'me',
    inferred:
      'the enterprise id field: enterprise_id, enterpriseId or enterprise.id are all read (tolerated)',
    observe: (me: MeRecord, findings) => findings.enterpriseIdFoundIn(me.enterprise_id_field),
  }),
  getUserIdByEmail: endpoint({
    method: 'GET',
    path: '/api/v3/users/id',
    input: z.object({ email }),
    output: idAnswer,
    // A person's account by e-mail, read again on each first request after a restart without it.
    cache: 'users',
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/api/v3/users/password/reset',
    auth: false,
    input: z.object({ login: z.string().min(1, 'is required') }),
    output: anyAnswer,
  }),
  listGroups: endpoint({
    method: 'GET',
    path: '/api/v3/enterprises/{enterpriseId}/groups',
    input: z.object({ enterpriseId: intId }),
    output: listOfRecords(groupRecord),
    cache: 'groups',
  }),
  listGroupMembers: endpoint({
    method: 'GET',
    path: '/api/v3/enterprises/{enterpriseId}/groups/{groupId}/members',
    input: z.object({ enterpriseId: intId, groupId: intId }),
    output: listOfRecords(userRecord),
    cache: 'groups',
  }),

  // ----- media (4.3) -----
  listMedias: endpoint({
    method: 'GET',
    path: '/api/v3/medias',
    input: z.object({ ...mediaFilters, conversationId: z.union([z.string(), z.number()]).optional() }),
    wire: { ...mediaFilterWire, conversationId: 'conversation_id' },
    output: listOfRecords(mediaRecord),
  }),
  getMedia: endpoint({
    method: 'GET',
    path: '/api/v3/medias/{mediaId}',
    input: z.object({ mediaId: intId }),
    output: mediaRecord,
  }),
  downloadMedia: endpoint({
    method: 'GET',
    path: '/api/v3/medias/{mediaId}/download',
    inferred:
      'a download may answer a redirect (to a file store): followed, at most 3, each hop on the platform’s host or PLATFORM_HOSTS (tolerated)',
    input: z.object({ mediaId: intId }),
    output: 'stream',
  }),
  updateMedia: endpoint({
    method: 'PUT',
    path: '/api/v3/medias/{mediaId}',
    input: z.object({
      mediaId: intId,
      title: z.string().optional(),
      description: z.string().optional(),
      lat: z.number().min(-90, 'latitude is -90 to 90').max(90, 'latitude is -90 to 90').optional(),
      lng: z.number().min(-180, 'longitude is -180 to 180').max(180, 'longitude is -180 to 180').optional(),
    }),
    output: anyAnswer,
  }),
  deleteMedia: endpoint({
    method: 'DELETE',
    path: '/api/v3/medias/{mediaId}',
    input: z.object({ mediaId: intId }),
    output: anyAnswer,
  }),

  // ----- tickets (4.4; paths and names per platform-facts.md) -----
  createTicket: endpoint({
    method: 'POST',
    path: '/api/v3/tickets',
    input: z
      .object({
        name: z.string().optional(),
        phones: phones.optional(),
        emails: ticketEmails.optional(),
        language: z.string().min(2).optional(),
        type: z.string().optional(),
        subject: z.string().optional(),
        reference: z.string().optional(),
        description: z.string().optional(),
        groupId: intId.optional(),
        agent: userRef.optional(),
        invite: bool.optional(),
        agentTemplateId: intId.optional(),
        requestorTemplateId: intId.optional(),
        inviteOrganizer: bool.optional(),
        startTime: utcDateTime.optional(),
        duration: minutes.min(1, 'must be at least 1 minute').optional(),
        reminder: minutes.min(1, 'must be 1 to 60 minutes').max(60, 'must be 1 to 60 minutes').optional(),
        firstName: z.string().optional(),
        company: z.string().optional(),
        gender: z.string().optional(),
        country: country.optional(),
        serviceKey: serviceKey.optional(),
        scopes: z.array(z.string().min(1)).optional(),
        state: ticketState.optional(),
      })
      .superRefine(
        atLeastOne('emails', 'phones', 'give at least one e-mail or phone number of the requestor'),
      ),
    wire: { phones: 'phone', emails: 'email', serviceKey: 'service_key', scopes: 'scope' },
    inferred:
      'phone, email, agent, invite, reference are legacy names; language…scope by analogy with conferences; ' +
      'groupId, agentTemplateId, requestorTemplateId, inviteOrganizer, firstName, company, gender, country, state chosen',
    output: ticketRecord,
  }),
  getTicket: endpoint({
    method: 'GET',
    path: '/api/v3/tickets/{ticketId}',
    inferred:
      'path; join-link field names (every plausible name read by join-links.ts: tolerated); ' +
      'requestor/agent may be [] (tolerated)',
    input: z.object({ ticketId: intId }),
    output: ticketRecord,
  }),
  updateTicket: endpoint({
    method: 'PUT',
    path: '/api/v3/tickets/{ticketId}',
    inferred: 'path; groupId name',
    input: z.object({ ticketId: intId, ...ticketUpdatable }),
    output: anyAnswer,
  }),
  deleteTicket: endpoint({
    method: 'DELETE',
    path: '/api/v3/tickets/{ticketId}',
    inferred: 'path',
    input: z.object({ ticketId: intId }),
    output: anyAnswer,
  }),
  listTickets: endpoint({
    method: 'GET',
    path: '/api/v3/tickets',
    inferred: 'path and every filter name; the page cap (learned by paginate: tolerated)',
    input: z.object({
      createdAfter: utcDateTime.optional(),
      createdBefore: utcDateTime.optional(),
      startedAfter: utcDateTime.optional(),
      endedBefore: utcDateTime.optional(),
      search: z.string().optional(),
      orderby: z.string().optional(),
      order: z.enum(['asc', 'desc']).optional(),
      ...paging,
      user: userRef.optional(),
      groupId: intId.optional(),
      reference: z.string().optional(),
      type: z.string().optional(),
      requestorId: intId.optional(),
      scopes: z.array(z.string().min(1)).optional(),
      serviceKey: serviceKey.optional(),
    }),
    wire: {
      createdAfter: 'since',
      createdBefore: 'until',
      startedAfter: 'startTime',
      endedBefore: 'endTime',
      serviceKey: 'service_key',
    },
    output: listOfRecords(ticketRecord),
  }),
  listTicketMedias: endpoint({
    method: 'GET',
    path: '/api/v3/tickets/{ticketId}/medias',
    inferred: 'filter names as for /medias',
    input: z.object({ ticketId: intId, ...mediaFilters }),
    wire: mediaFilterWire,
    output: listOfRecords(mediaRecord),
  }),
  /** The "download variant" of the ticket media list: every media of the ticket in one archive. */
  downloadTicketMedias: endpoint({
    method: 'GET',
    path: '/api/v3/tickets/{ticketId}/medias/download',
    inferred:
      'path and the filename parameter; a download may answer a redirect (to a file store): followed, at most 3, each hop on the platform’s host or PLATFORM_HOSTS (tolerated)',
    input: z.object({
      ticketId: intId,
      filename: z
        .string()
        .min(1)
        .regex(/^[^./\\][^/\\]*$/, 'a file name without extension or folder')
        .refine((s) => !/\.[a-z0-9]{1,5}$/i.test(s), 'give the name without its extension'),
    }),
    output: 'stream',
  }),
  listTicketEvents: endpoint({
    method: 'GET',
    path: '/api/v3/tickets/{ticketId}/events',
    inferred: 'an event’s data may be [] (tolerated); the page cap (learned by paginate: tolerated)',
    input: z.object({ ticketId: intId, ...paging }),
    output: listOfRecords(ticketEventRecord),
  }),
  exportTicket: endpoint({
    method: 'POST',
    path: '/api/v3/tickets/{ticketId}/export',
    inferred:
      'parameter names format, timeline; the answer’s url (absolute or relative) is on the platform’s own host or PLATFORM_HOSTS (else refused)',
    input: z.object({ ticketId: intId, format: z.string().min(1).optional(), timeline: bool.optional() }),
    output: exportResource,
  }),
  /** Fetches the file an export produced (the resource's `url`, or by id). */
  downloadExport: endpoint({
    method: 'GET',
    path: '/api/v3/exports/{exportId}',
    inferred:
      'path (the export answer normally carries a url to use instead); a download may answer a redirect (to a file store): followed, at most 3, each hop on the platform’s host or PLATFORM_HOSTS (tolerated)',
    input: z.object({ exportId: z.string().min(1) }),
    output: 'stream',
  }),

  // ----- reports and statistics (4.5) -----
  getTicketsReport: endpoint({
    method: 'GET',
    path: '/api/v3/enterprises/{enterpriseId}/tickets/report',
    inferred: 'every field name (kept as sent); the report or its sections may be [] (tolerated)',
    input: z.object({
      enterpriseId: intId,
      startTime: reportTime,
      endTime: reportTime,
      userId: intId.optional(),
      groupId: intId.optional(),
      withTrashed: bool.optional(),
    }),
    output: ticketsReport,
  }),
  getStatistics: endpoint({
    method: 'GET',
    path: '/api/v3/enterprises/{enterpriseId}/statistics',
    input: z.object({ enterpriseId: intId, date: calendarDate.optional(), output: z.string().optional() }),
    output: statisticsRecord,
  }),
} as const satisfies Record<string, EndpointSpec>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
