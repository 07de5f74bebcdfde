import { noFaults, type SimFaults } from '../faults.js';
import { noHostility } from '../hostile.js';
import type { Ctx } from '../http.js';
import { iso, presentMedia, presentTicket } from '../present.js';
import { bad, SimHttpError } from '../rules.js';
import type { AdminContext } from './context.js';
import { TICKET_STATES } from './tickets.js';

/** Admin routes (`/_sim`, static admin token only), for tests, demos and the poller's playground. */
export function registerAdminRoutes(sim: AdminContext) {
  const {
    admin,
    state,
    quirks,
    faults,
    hostility,
    settings,
    tokens,
    issueToken,
    requests,
    webhookDeliveries,
    adminUser,
  } = sim;
  const simTicket = (ctx: Ctx) => {
    const t = state.tickets.get(Number(ctx.p.ticketId));
    if (!t) throw new SimHttpError(404, 'no such ticket');
    return t;
  };
  /** Sets the named switches of `target` (strings as given, booleans and numbers read). */
  const patchFrom = (ctx: Ctx, defaults: object, target: object) => {
    const patch: Record<string, unknown> = {};
    for (const [k, d] of Object.entries(defaults)) {
      const v = ctx.q.raw(k);
      if (v === undefined) continue;
      patch[k] = typeof d === 'string' ? v : v === 'true' ? true : v === 'false' ? false : Number(v);
    }
    Object.assign(target, patch);
    return { body: target };
  };
  admin('GET', '/_sim/faults', () => ({ body: faults }));
  admin('PUT', '/_sim/faults', (ctx) => patchFrom(ctx, noFaults satisfies SimFaults, faults));
  admin('GET', '/_sim/hostile', () => ({ body: hostility }));
  admin('PUT', '/_sim/hostile', (ctx) => patchFrom(ctx, noHostility, hostility));
  admin('PUT', '/_sim/config', (ctx) => {
    settings.rateLimit = ctx.q.int('rateLimit', { min: 0 }) ?? settings.rateLimit;
    settings.tokenTtl = ctx.q.int('tokenTtlSeconds', { min: 1 }) ?? settings.tokenTtl;
    const feature = ctx.q.bool('conferenceFeature');
    if (feature !== undefined) ctx.ent.features.conference = feature;
    return {
      body: { rateLimit: settings.rateLimit, tokenTtlSeconds: settings.tokenTtl, features: ctx.ent.features },
    };
  });
  admin('PUT', '/_sim/webhook', (ctx) => {
    const webhook = {
      url: ctx.q.required('url'),
      header: ctx.q.raw('header') ?? 'X-Webhook-Secret',
      secret: ctx.q.required('secret'),
    };
    settings.webhook = webhook;
    return { body: { url: webhook.url, header: webhook.header } };
  });
  admin('DELETE', '/_sim/webhook', () => {
    settings.webhook = undefined;
    return { status: 204 };
  });
  admin('GET', '/_sim/webhook', () => ({
    body: settings.webhook
      ? { on: true, url: settings.webhook.url, header: settings.webhook.header }
      : { on: false },
  }));
  admin('GET', '/_sim/webhooks', () => ({ body: webhookDeliveries }));
  admin('POST', '/_sim/tokens', (ctx) => {
    const username = ctx.q.required('username');
    const user = [...state.users.values()].find((u) => u.username === username && !u.deleted);
    if (!user) throw bad('username', 'unknown user');
    return {
      body: { access_token: issueToken(user, ctx.q.int('ttl', { min: 1 })), expires_in: settings.tokenTtl },
    };
  });
  admin('POST', '/_sim/tokens/expire', () => {
    for (const t of tokens.values()) t.expiresAt = 0;
    return { body: { expired: tokens.size } };
  });
  admin('GET', '/_sim/requests', () => ({ body: requests }));
  admin('DELETE', '/_sim/requests', () => {
    requests.length = 0;
    return { status: 204 };
  });
  // The admin's enterprise's live tickets, in a word each, and the states PUT /tickets/{id} takes.
  admin('GET', '/_sim/tickets', (ctx) => ({
    body: {
      tickets: [...state.tickets.values()]
        .filter((t) => t.enterpriseId === ctx.ent.id && !t.deleted)
        .map((t) => ({
          id: t.id,
          reference: t.reference ?? String(t.id),
          title: t.subject ?? '',
          state: t.state,
        })),
      states: TICKET_STATES,
    },
  }));
  admin('POST', '/_sim/tickets/{ticketId}/guest-join', (ctx) => {
    state.guestJoins(simTicket(ctx));
    return { body: presentTicket(simTicket(ctx), state, quirks) };
  });
  admin('POST', '/_sim/tickets/{ticketId}/session-end', (ctx) => {
    state.sessionEnds(simTicket(ctx));
    return { body: presentTicket(simTicket(ctx), state, quirks) };
  });
  admin('POST', '/_sim/tickets/{ticketId}/picture', (ctx) => ({
    body: presentMedia(state.takePicture(simTicket(ctx)), state),
  }));
  admin('POST', '/_sim/tickets/{ticketId}/events', (ctx) => {
    const source = ctx.q.oneOf('source', ['agent', 'guest', 'system'] as const) ?? 'system';
    const e = state.addEvent(simTicket(ctx), ctx.q.required('name'), source);
    return { body: { ...e, timestamp: iso(e.timestamp) } };
  });
  admin('POST', '/_sim/activity', (ctx) => {
    const n = ctx.q.int('count', { min: 1, max: 1000 }) ?? 1;
    return { body: Array.from({ length: n }, () => state.randomActivity()).filter(Boolean) };
  });
  admin('POST', '/_sim/medias', (ctx) => {
    const size = ctx.q.int('size', { min: 1 }) ?? 1024;
    const m = state.addMedia({
      enterpriseId: 1,
      userId: adminUser.id,
      type: ctx.q.oneOf('type', ['snapshot', 'capture', 'recording', 'document'] as const) ?? 'recording',
      title: ctx.q.raw('title') ?? `Synthetic media (${size} bytes)`,
      format: ctx.q.raw('format') ?? 'video/mp4',
      ticketId: ctx.q.int('ticketId'),
      conferenceId: ctx.q.int('conferenceId'),
      content: { kind: 'generated', size, seed: state.nextId('event') },
    });
    return { body: presentMedia(m, state) };
  });
}
