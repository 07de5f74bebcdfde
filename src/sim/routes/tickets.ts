import { randomBytes } from 'node:crypto';
import { contentStream, zipSize, zipStream } from '../content.js';
import { envelope, iso, presentMedia, presentTicket } from '../present.js';
import { bad, SimHttpError } from '../rules.js';
import type { RouteContext } from './context.js';
import { mediaList } from './medias.js';

/** The simulator restates the ticket states itself, independent of the client's schemas. */
export const TICKET_STATES = [
  'new',
  'open',
  'invited',
  'inprogress',
  'done',
  'closed',
  'rejected',
  'declined',
  'expired',
  'cancelled',
] as const;

/** Tickets, their media, events and exports (spec 4.4; paths and names per platform-facts.md). */
export function registerTicketRoutes(sim: RouteContext) {
  const {
    route,
    state,
    quirks,
    now,
    publicUrl,
    findTicket,
    userRef,
    groupRef,
    userScope,
    sortBy,
    capped,
    barePage,
  } = sim;
  route('POST', '/api/v3/tickets', (ctx) => {
    const { q } = ctx;
    const emails = q.emails('email', { forbidGeneric: true });
    const phones = q.phones('phone');
    if (!emails.length && !phones.length) throw bad('email', 'email or phone is required');
    const agent = userRef(ctx, 'agent');
    const group = groupRef(ctx, 'groupId');
    const ticket = state.createTicket(ctx.user, {
      emails,
      phones,
      name: q.raw('name'),
      language: q.raw('language'),
      type: q.raw('type'),
      subject: q.raw('subject'),
      reference: q.raw('reference'),
      description: q.raw('description'),
      groupId: group?.id,
      agentId: agent?.id,
      invite: q.bool('invite') ?? false,
      agentTemplateId: q.int('agentTemplateId', { min: 1 }),
      requestorTemplateId: q.int('requestorTemplateId', { min: 1 }),
      inviteOrganizer: q.bool('inviteOrganizer'),
      startTime: q.utc('startTime'),
      duration: q.int('duration', { min: 1 }),
      reminder: q.int('reminder', { min: 1, max: 60 }),
      firstName: q.raw('firstName'),
      company: q.raw('company'),
      gender: q.raw('gender'),
      country: q.country('country'),
      serviceKey: q.serviceKey('service_key'),
      scopes: q.list('scope'),
      initialState: q.oneOf('state', TICKET_STATES),
    });
    return { body: presentTicket(ticket, state, quirks) };
  });
  route('GET', '/api/v3/tickets/{ticketId}', (ctx) => ({
    body: presentTicket(findTicket(ctx), state, quirks),
  }));
  route('PUT', '/api/v3/tickets/{ticketId}', (ctx) => {
    const t = findTicket(ctx);
    const { q } = ctx;
    const nextState = q.oneOf('state', TICKET_STATES);
    const agent = userRef(ctx, 'agent');
    const group = groupRef(ctx, 'groupId');
    if (t.state === 'closed' && (nextState ?? 'closed') !== 'closed') {
      throw new SimHttpError(
        400,
        'Parameter state: the ticket is closed; no further action is possible',
        'state',
      );
    }
    for (const k of ['reference', 'description', 'subject'] as const) {
      const v = q.raw(k);
      if (v !== undefined) t[k] = v;
    }
    if (group) t.groupId = group.id;
    if (agent) state.assignAgent(t, agent.id, 'agent');
    if (nextState) state.setTicketState(t, nextState, 'agent');
    state.changed(t, 'update');
    return { status: 204 };
  });
  route('DELETE', '/api/v3/tickets/{ticketId}', (ctx) => {
    const t = findTicket(ctx);
    t.deleted = now();
    state.changed(t, 'delete');
    return { body: { id: t.id, deleted: true } };
  });
  route('GET', '/api/v3/tickets', (ctx) => {
    const { q } = ctx;
    const { offset, limit } = q.paging(10);
    const since = q.utc('since');
    const until = q.utc('until');
    const startedAfter = q.utc('startTime');
    const endedBefore = q.utc('endTime');
    const search = q.raw('search')?.toLowerCase();
    const askedOrderby =
      q.oneOf('orderby', ['start_time', 'created', 'modified', 'reference', 'state'] as const) ??
      'start_time';
    const askedOrder = q.order();
    // Quirk: the order is validated, then not applied (the default sort stands).
    const orderby = quirks.ignoreOrderBy ? 'start_time' : askedOrderby;
    const order = quirks.ignoreOrderBy ? 'desc' : askedOrder;
    const user = userScope(ctx, 'user');
    const group = groupRef(ctx, 'groupId');
    const reference = q.raw('reference');
    const type = q.raw('type');
    const requestorId = q.int('requestorId', { min: 1 });
    const serviceKey = q.serviceKey('service_key');
    let list = [...state.tickets.values()].filter((t) => {
      if (t.deleted || t.enterpriseId !== ctx.ent.id) return false;
      if (user !== 'all' && t.agentId !== user && t.createdBy !== user) return false;
      if (since !== undefined && t.created < since) return false;
      if (until !== undefined && t.created > until) return false;
      if (startedAfter !== undefined && (t.startTime === undefined || t.startTime < startedAfter))
        return false;
      if (endedBefore !== undefined && (t.endTime === undefined || t.endTime > endedBefore)) return false;
      if (
        search &&
        !`${t.subject} ${t.reference} ${t.description} ${t.requestor.name}`.toLowerCase().includes(search)
      )
        return false;
      if (group && t.groupId !== group.id) return false;
      if (reference !== undefined && t.reference !== reference) return false;
      if (type !== undefined && t.type !== type) return false;
      if (requestorId !== undefined && t.id !== requestorId) return false;
      if (serviceKey && t.serviceKey !== serviceKey) return false;
      return true;
    });
    list = sortBy(
      list,
      (t) =>
        orderby === 'start_time'
          ? (t.startTime ?? t.created)
          : orderby === 'reference' || orderby === 'state'
            ? (t[orderby] ?? '')
            : t[orderby],
      order,
    );
    return {
      body: envelope(
        list.map((t) => presentTicket(t, state, quirks)),
        offset,
        capped(limit),
      ),
    };
  });
  route('GET', '/api/v3/tickets/{ticketId}/medias', (ctx) => {
    const t = findTicket(ctx);
    return mediaList(sim, ctx, (m) => m.ticket_id === t.id, false);
  });
  route('GET', '/api/v3/tickets/{ticketId}/medias/download', (ctx) => {
    const t = findTicket(ctx);
    const filename = ctx.q.required('filename');
    if (/[./\\]/.test(filename)) throw bad('filename', 'give a file name without extension');
    const medias = [...state.medias.values()].filter((m) => m.ticketId === t.id);
    if (!medias.length) throw new SimHttpError(404, 'Resource Not Found: the ticket has no media');
    const entries = medias.map((m) => ({ name: m.filename, content: m.content }));
    return {
      headers: {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="${filename}.zip"`,
        // A stored (uncompressed) archive's length is known before it is written: announced, as the
        // single media's download announces its own.
        'content-length': String(zipSize(entries)),
      },
      stream: zipStream(entries),
    };
  });
  route('GET', '/api/v3/tickets/{ticketId}/events', (ctx) => {
    const t = findTicket(ctx);
    const events = [...t.events].sort((a, b) => a.timestamp - b.timestamp || (a.id < b.id ? -1 : 1));
    return {
      body: barePage(ctx, events, 1000).map((e) => ({
        id: e.id,
        eventName: e.eventName,
        timestamp: iso(e.timestamp),
        source: e.source,
        data: e.data,
      })),
    };
  });
  route('POST', '/api/v3/tickets/{ticketId}/export', (ctx) => {
    const t = findTicket(ctx);
    const format = ctx.q.oneOf('format', ['json', 'csv'] as const) ?? 'json';
    const timeline = ctx.q.bool('timeline') ?? false;
    const wire = presentTicket(t, state, quirks);
    const medias = [...state.medias.values()]
      .filter((m) => m.ticketId === t.id)
      .map((m) => presentMedia(m, state));
    const events = timeline ? t.events.map((e) => ({ ...e, timestamp: iso(e.timestamp) })) : undefined;
    const body =
      format === 'json'
        ? JSON.stringify({ ticket: wire, medias, ...(events ? { events } : {}) }, null, 2)
        : [
            'field,value',
            ...Object.entries(wire)
              .filter(([, v]) => typeof v !== 'object' || v === null)
              .map(([k, v]) => `${k},"${String(v ?? '').replace(/"/g, '""')}"`),
            ...(events ?? []).map((e) => `event,"${e.timestamp} ${e.eventName}"`),
          ].join('\n');
    const id = `exp-${randomBytes(6).toString('hex')}`;
    state.exports.set(id, {
      id,
      enterpriseId: t.enterpriseId,
      ticketId: t.id,
      format,
      body: Buffer.from(body),
    });
    return { body: { id, status: 'completed', format, url: `${publicUrl()}/api/v3/exports/${id}` } };
  });
  route('GET', '/api/v3/exports/{exportId}', (ctx) => {
    const e = state.exports.get(ctx.p.exportId ?? '');
    if (!e || e.enterpriseId !== ctx.ent.id) throw new SimHttpError(404, 'Resource Not Found: export');
    return {
      headers: {
        'content-type': e.format === 'json' ? 'application/json' : 'text/csv',
        'content-length': String(e.body.length),
        'content-disposition': `attachment; filename="ticket-${e.ticketId}.${e.format}"`,
      },
      stream: contentStream({ kind: 'bytes', data: e.body }),
    };
  });
}
