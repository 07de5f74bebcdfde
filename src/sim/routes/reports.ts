import type { SimTicket } from '../model.js';
import { iso } from '../present.js';
import { bad } from '../rules.js';
import type { RouteContext } from './context.js';

/** The tickets report and daily statistics, computed from the simulator's data (spec 4.5). */
export function registerReportRoutes(sim: RouteContext) {
  const { route, state, now, sameEnterprise, groupRef } = sim;
  route('GET', '/api/v3/enterprises/{enterpriseId}/tickets/report', (ctx) => {
    sameEnterprise(ctx);
    const { q } = ctx;
    const start = q.reportTime('startTime');
    let end = q.reportTime('endTime');
    // A bare date as the end bound includes that whole day.
    if (/^\d{4}-\d{2}-\d{2}$/.test(q.raw('endTime') ?? '')) end += 86_400_000 - 1;
    if (end < start) throw bad('endTime', 'must not be before startTime');
    const userId = q.int('userId', { min: 1 });
    const group = groupRef(ctx, 'groupId');
    const withTrashed = q.bool('withTrashed') ?? false;
    const tickets = [...state.tickets.values()].filter(
      (t) =>
        t.enterpriseId === ctx.ent.id &&
        t.created >= start &&
        t.created <= end &&
        (withTrashed || !t.deleted) &&
        (userId === undefined || t.agentId === userId) &&
        (!group || t.groupId === group.id),
    );
    const count = <K>(key: (t: SimTicket) => K) => {
      const m = new Map<K, number>();
      for (const t of tickets) m.set(key(t), (m.get(key(t)) ?? 0) + 1);
      return m;
    };
    const sessions = state.sessions.filter(
      (s) => s.ticketId !== undefined && tickets.some((t) => t.id === s.ticketId),
    );
    return {
      body: {
        enterprise_id: ctx.ent.id,
        start: iso(start),
        end: iso(end),
        total: tickets.length,
        by_state: Object.fromEntries(count((t) => t.state)),
        by_agent: [...count((t) => t.agentId)].map(([id, n]) => ({
          agent_id: id ?? null,
          username: id === undefined ? null : (state.users.get(id)?.username ?? null),
          count: n,
        })),
        by_group: [...count((t) => t.groupId)].map(([id, n]) => ({
          group_id: id ?? null,
          name: id === undefined ? null : (state.groups.get(id)?.name ?? null),
          count: n,
        })),
        session_count: sessions.length,
        session_duration: sessions.reduce(
          (sum, s) => sum + Math.round(((s.end ?? now()) - s.start) / 1000),
          0,
        ),
      },
    };
  });
  route('GET', '/api/v3/enterprises/{enterpriseId}/statistics', (ctx) => {
    sameEnterprise(ctx);
    const date = ctx.q.date('date') ?? new Date(now()).toISOString().slice(0, 10);
    ctx.q.oneOf('output', ['json'] as const);
    return { body: state.statistics(ctx.ent.id, date) };
  });
}
