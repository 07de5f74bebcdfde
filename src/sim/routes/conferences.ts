import type { Ctx } from '../http.js';
import { envelope, presentConference } from '../present.js';
import { bad, SimHttpError } from '../rules.js';
import type { RouteContext } from './context.js';

/** Conferences (spec 4.1). */
export function registerConferenceRoutes(sim: RouteContext) {
  const { route, state, quirks, now, userRef, userScope, findConference, sortBy, capped } = sim;
  const conferenceParams = (ctx: Ctx, creating: boolean) => {
    const { q } = ctx;
    const moderator = userRef(ctx, 'moderator');
    const scope = q.list('scope');
    for (const s of scope) if (s !== 'sso') throw bad('scope', 'available scopes: sso');
    const password = q.text('password', { max: 255 });
    if (password !== undefined && !/^[0-9*#]+$/.test(password))
      throw bad('password', 'allowed characters: 0-9 * #');
    return {
      participants: q.participants('participants', creating),
      name: q.text('name', { min: 2, max: 255 }),
      message: q.text('message', { max: 300 }),
      password,
      moderation: q.bool('moderation'),
      entryMode: q.raw('entryMode'),
      startTime: q.utc('startTime'),
      open: q.bool('open'),
      duration: q.int('duration', { min: 1 }),
      reminder: q.int('reminder', { min: 1, max: 60 }),
      templateId: q.int('templateId', { min: 1 }),
      language: q.raw('language'),
      invite: q.bool('invite'),
      moderatorId: moderator?.id,
      scope: scope.length ? scope : undefined,
      serviceKey: creating ? q.serviceKey('service_key') : undefined,
    };
  };
  const needConferenceFeature = (ctx: Ctx) => {
    if (!ctx.ent.features.conference) {
      throw new SimHttpError(403, 'Forbidden: the conference feature is not enabled for this account');
    }
  };
  route('POST', '/api/v3/conferences', (ctx) => {
    needConferenceFeature(ctx);
    const p = conferenceParams(ctx, true);
    const conf = state.createConference(ctx.user, {
      ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)),
      participants: p.participants ?? [],
      invite: p.invite ?? true,
    });
    return { body: presentConference(conf, state, [], quirks) };
  });
  route('PUT', '/api/v3/conferences/{conferenceId}', (ctx) => {
    const conf = findConference(ctx);
    if (ctx.q.has('service_key')) throw bad('service_key', 'cannot be changed');
    const p = conferenceParams(ctx, false);
    for (const [k, v] of Object.entries(p))
      if (v !== undefined) (conf as unknown as Record<string, unknown>)[k] = v;
    conf.modified = now();
    return { body: presentConference(conf, state, [], quirks) };
  });
  route('DELETE', '/api/v3/conferences/{conferenceId}', (ctx) => {
    const conf = findConference(ctx);
    state.conferences.delete(conf.id);
    return { body: { id: conf.id, deleted: true } };
  });
  route('GET', '/api/v3/conferences', (ctx) => {
    needConferenceFeature(ctx);
    const { q } = ctx;
    const { offset, limit } = q.paging(100);
    const status = q.oneOf('status', ['planned', 'ongoing', 'ended'] as const);
    const since = q.utc('since');
    const until = q.utc('until');
    const search = q.raw('search')?.toLowerCase();
    const orderby = q.oneOf('orderby', ['date', 'name', 'created'] as const) ?? 'date';
    const order = q.order();
    const moderator = userScope(ctx, 'moderator');
    const participant = q.int('user', { min: 1 });
    const participantUser = participant === undefined ? undefined : state.users.get(participant);
    const serviceKey = q.serviceKey('service_key');
    const scopes = q.list('scopes');
    for (const s of scopes)
      if (!['participant', 'media'].includes(s)) throw bad('scopes', 'available: participant, media');
    let list = [...state.conferences.values()]
      .filter((c) => c.enterpriseId === ctx.ent.id)
      .map((c) => ({ c, wire: presentConference(c, state, scopes, quirks) }))
      .filter(({ c, wire }) => {
        if (
          moderator !== 'all' &&
          participant === undefined &&
          c.moderatorId !== moderator &&
          c.createdBy !== moderator
        )
          return false;
        if (participant !== undefined) {
          const email = participantUser?.email;
          if (c.moderatorId !== participant && !(email && c.participants.includes(email))) return false;
        }
        if (status && wire.status !== status) return false;
        if (since !== undefined && c.startTime < since) return false;
        if (until !== undefined && c.startTime > until) return false;
        if (search && !`${c.name} ${c.roomName}`.toLowerCase().includes(search)) return false;
        if (serviceKey && c.serviceKey !== serviceKey) return false;
        return true;
      });
    list = sortBy(
      list,
      ({ c }) => (orderby === 'name' ? c.name : orderby === 'created' ? c.created : c.startTime),
      order,
    );
    return {
      body: envelope(
        list.map((x) => x.wire),
        offset,
        capped(limit),
      ),
    };
  });
  route('GET', '/api/v3/conferences/{conferenceId}', (ctx) => {
    for (const s of ctx.q.list('scope')) if (s !== 'sso') throw bad('scope', 'available scopes: sso');
    return { body: presentConference(findConference(ctx), state, [], quirks) };
  });
}
