import { presentUser } from '../present.js';
import { SimHttpError } from '../rules.js';
import type { RouteContext } from './context.js';

/** Groups of an enterprise and their members (spec 4.2). */
export function registerGroupRoutes(sim: RouteContext) {
  const { route, state, sameEnterprise, barePage } = sim;
  route('GET', '/api/v3/enterprises/{enterpriseId}/groups', (ctx) => {
    sameEnterprise(ctx);
    const groups = [...state.groups.values()].filter((g) => g.enterpriseId === ctx.ent.id);
    return {
      body: barePage(
        ctx,
        groups.map((g) => ({
          id: g.id,
          name: g.name,
          member_count: state.liveUsers(ctx.ent.id).filter((u) => u.groups.includes(g.id)).length,
        })),
      ),
    };
  });
  route('GET', '/api/v3/enterprises/{enterpriseId}/groups/{groupId}/members', (ctx) => {
    sameEnterprise(ctx);
    const g = state.groups.get(Number(ctx.p.groupId));
    if (!g || g.enterpriseId !== ctx.ent.id) throw new SimHttpError(404, 'Resource Not Found: group');
    return {
      body: barePage(
        ctx,
        state
          .liveUsers(ctx.ent.id)
          .filter((u) => u.groups.includes(g.id))
          .map(presentUser),
      ),
    };
  });
}
