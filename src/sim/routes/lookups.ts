import type { Ctx } from '../http.js';
import type { SimTicket, SimUser } from '../model.js';
import type { SimQuirks } from '../quirks.js';
import { bad, SimHttpError } from '../rules.js';
import type { SimState } from '../state.js';

export type Lookups = ReturnType<typeof createLookups>;

/**
 * What several resources' routes share: finding a record of the caller's enterprise (404 when
 * absent, 403 when another enterprise's), reading user and group references, the role check, and
 * paging and sorting as the simulator serves them.
 */
export function createLookups(state: SimState, quirks: SimQuirks) {
  const requireAdmin = (ctx: Ctx, what: string) => {
    if (ctx.user.role !== 'admin') throw new SimHttpError(403, `Forbidden: ${what} requires the admin role`);
  };
  const sameEnterprise = (ctx: Ctx, key = 'enterpriseId') => {
    const id = Number(ctx.p[key]);
    if (!state.enterprises.has(id)) throw new SimHttpError(404, 'Resource Not Found: enterprise');
    if (id !== ctx.ent.id) throw new SimHttpError(403, 'Forbidden: not your enterprise');
  };
  const findTicket = (ctx: Ctx, trashed = false): SimTicket => {
    const t = state.tickets.get(Number(ctx.p.ticketId));
    if (!t || (t.deleted && !trashed)) throw new SimHttpError(404, 'Resource Not Found: ticket');
    if (t.enterpriseId !== ctx.ent.id) throw new SimHttpError(403, 'Forbidden: ticket of another enterprise');
    return t;
  };
  const userRef = (ctx: Ctx, name: string): SimUser | undefined => {
    const ref = ctx.q.raw(name);
    if (ref === undefined) return undefined;
    const u = state.findUser(ctx.ent.id, ref);
    if (!u) throw bad(name, `no user "${ref}" in this enterprise`);
    return u;
  };
  const groupRef = (ctx: Ctx, name: string) => {
    const id = ctx.q.int(name, { min: 1 });
    if (id === undefined) return undefined;
    const g = state.groups.get(id);
    if (!g || g.enterpriseId !== ctx.ent.id) throw bad(name, `no group ${id} in this enterprise`);
    return g;
  };
  /** `user`/`moderator` filter: a user id, or `all` (admin only); default the caller. */
  const userScope = (ctx: Ctx, name: string): number | 'all' => {
    const v = ctx.q.raw(name);
    if (v === 'all') {
      requireAdmin(ctx, `${name}=all`);
      return 'all';
    }
    if (v === undefined) return ctx.user.id;
    if (!/^\d+$/.test(v)) throw bad(name, 'must be a user id or all');
    return Number(v);
  };
  /** The page size served: what was asked, at most the quirk's cap. */
  const capped = (limit: number) => (quirks.pageCap > 0 ? Math.min(limit, quirks.pageCap) : limit);
  /** A bare-array list page: `offset`/`limit` when given (everything otherwise), within the cap; no total. */
  const barePage = <T>(ctx: Ctx, all: T[], defaultLimit = Number.POSITIVE_INFINITY): T[] => {
    const offset = ctx.q.int('offset', { min: 0 }) ?? 0;
    const limit = capped(ctx.q.int('limit', { min: 1, max: 1000 }) ?? defaultLimit);
    return all.slice(offset, offset + limit);
  };
  const sortBy = <T>(items: T[], key: (t: T) => string | number, order: 'asc' | 'desc') =>
    items.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      const c = x < y ? -1 : x > y ? 1 : 0;
      return order === 'asc' ? c : -c;
    });
  const findConference = (ctx: Ctx) => {
    const key = decodeURIComponent(ctx.p.conferenceId ?? '');
    const c = /^\d+$/.test(key)
      ? state.conferences.get(Number(key))
      : [...state.conferences.values()].find((x) => x.roomName === key);
    if (!c) throw new SimHttpError(404, 'Resource Not Found: conference');
    if (c.enterpriseId !== ctx.ent.id)
      throw new SimHttpError(403, 'Forbidden: conference of another enterprise');
    return c;
  };

  return {
    requireAdmin,
    sameEnterprise,
    findTicket,
    findConference,
    userRef,
    groupRef,
    userScope,
    capped,
    barePage,
    sortBy,
  };
}
