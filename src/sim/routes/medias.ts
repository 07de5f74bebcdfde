import { contentStream } from '../content.js';
import type { Ctx } from '../http.js';
import { envelope, presentMedia } from '../present.js';
import { bad, SimHttpError } from '../rules.js';
import type { RouteContext } from './context.js';

/** A media list page: `base` picks the owner (all, a conference, a ticket), the rest is the spec's filters. */
export function mediaList(
  sim: RouteContext,
  ctx: Ctx,
  base: (m: ReturnType<typeof presentMedia>) => boolean,
  conversation: boolean,
) {
  const { state, userScope, groupRef, sortBy, capped } = sim;
  const { q } = ctx;
  const { offset, limit } = q.paging(10);
  const status = q.raw('status') ?? 'completed';
  const since = q.utc('since');
  const until = q.utc('until');
  const search = q.raw('search')?.toLowerCase();
  const orderby = q.oneOf('orderby', ['date', 'title', 'size'] as const) ?? 'date';
  const order = q.order();
  const type = q.raw('media_type');
  const tag = q.raw('tag');
  const user = userScope(ctx, 'user');
  const group = groupRef(ctx, 'user_group');
  const sourceType = q.raw('source_type');
  const conversationId = conversation ? q.raw('conversation_id') : undefined;
  let list = [...state.medias.values()]
    .filter((m) => m.enterpriseId === ctx.ent.id)
    .map((m) => presentMedia(m, state))
    .filter(base)
    .filter((m) => {
      if (m.status !== status) return false;
      // The default (the caller's media) is widened to the enterprise when a ticket/conference is named.
      if (user !== 'all' && q.has('user') && m.user_id !== user) return false;
      if (group && !state.users.get(m.user_id)?.groups.includes(group.id)) return false;
      if (since !== undefined && Date.parse(m.created ?? '') < since) return false;
      if (until !== undefined && Date.parse(m.created ?? '') > until) return false;
      if (search && !`${m.title} ${m.description} ${m.filename}`.toLowerCase().includes(search)) return false;
      if (type && m.type !== type) return false;
      if (tag && !m.tags.includes(tag)) return false;
      if (sourceType !== undefined && String(m.source_type) !== sourceType) return false;
      if (conversationId !== undefined && m.conversation_id !== conversationId) return false;
      return true;
    });
  list = sortBy(
    list,
    (m) => (orderby === 'title' ? m.title : orderby === 'size' ? m.size : (m.created ?? '')),
    order,
  );
  return { body: envelope(list, offset, capped(limit)) };
}

/** Media (spec 4.3). */
export function registerMediaRoutes(sim: RouteContext) {
  const { route, state, sendWebhook, findConference } = sim;
  const findMedia = (ctx: Ctx) => {
    const m = state.medias.get(Number(ctx.p.mediaId));
    if (!m) throw new SimHttpError(404, 'Resource Not Found: media');
    if (m.enterpriseId !== ctx.ent.id) throw new SimHttpError(403, 'Forbidden: media of another enterprise');
    return m;
  };
  route('GET', '/api/v3/medias', (ctx) => mediaList(sim, ctx, () => true, true));
  route('GET', '/api/v3/conferences/{conferenceId}/medias', (ctx) => {
    if (!/^\d+$/.test(ctx.p.conferenceId ?? '')) throw bad('conferenceId', 'must be an integer');
    const conf = findConference(ctx);
    if (ctx.q.has('source_type') && !/^\d+$/.test(ctx.q.raw('source_type') ?? ''))
      throw bad('source_type', 'must be an integer here');
    return mediaList(sim, ctx, (m) => m.conference_id === conf.id, false);
  });
  route('GET', '/api/v3/medias/{mediaId}', (ctx) => ({ body: presentMedia(findMedia(ctx), state) }));
  route('GET', '/api/v3/medias/{mediaId}/download', (ctx) => {
    const m = findMedia(ctx);
    return {
      headers: {
        'content-type': m.format,
        'content-length': String(state.mediaSize(m)),
        'content-disposition': `attachment; filename="${m.filename}"`,
      },
      stream: contentStream(m.content),
    };
  });
  route('PUT', '/api/v3/medias/{mediaId}', (ctx) => {
    const m = findMedia(ctx);
    const { q } = ctx;
    m.title = q.text('title', { max: 255 }) ?? m.title;
    m.description = q.raw('description') ?? m.description;
    m.lat = q.number('lat', -90, 90) ?? m.lat;
    m.lng = q.number('lng', -180, 180) ?? m.lng;
    sendWebhook({ event: 'update', object: 'media', objectId: m.id, props: { title: m.title } });
    return { body: presentMedia(m, state) };
  });
  route('DELETE', '/api/v3/medias/{mediaId}', (ctx) => {
    const m = findMedia(ctx);
    state.medias.delete(m.id);
    sendWebhook({ event: 'delete', object: 'media', objectId: m.id, props: {} });
    return { body: { id: m.id, deleted: true } };
  });
}
