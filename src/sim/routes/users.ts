import { presentUser } from '../present.js';
import { bad, SimHttpError } from '../rules.js';
import type { RouteContext } from './context.js';

/** Enterprise users, the caller, user lookup and the public password reset (spec 4.2). */
export function registerUserRoutes(sim: RouteContext) {
  const { route, state, quirks, now, sameEnterprise, requireAdmin, barePage } = sim;
  route('GET', '/api/v3/enterprises/{enterpriseId}/users', (ctx) => {
    sameEnterprise(ctx);
    return { body: barePage(ctx, state.liveUsers(ctx.ent.id).map(presentUser)) };
  });
  route('POST', '/api/v3/users', (ctx) => {
    requireAdmin(ctx, 'creating a user');
    const { q } = ctx;
    const username = q.required('username');
    const password = q.required('password');
    const email = q.emails('email')[0];
    const cellPhone = q.phones('cell_phone')[0];
    if (!email && !cellPhone) throw bad('email', 'email or cell_phone is required');
    const enterpriseId = q.int('enterpriseId', { min: 1 }) ?? ctx.ent.id;
    if (enterpriseId !== ctx.ent.id) throw new SimHttpError(403, 'Forbidden: not your enterprise');
    if ([...state.users.values()].some((u) => !u.deleted && u.username === username)) {
      throw new SimHttpError(409, `Parameter username: "${username}" is taken`, 'username');
    }
    const user = state.addUser({
      enterpriseId,
      username,
      password,
      email,
      cellPhone,
      firstName: q.raw('firstName') ?? '',
      lastName: q.raw('lastName') ?? '',
      role: 'agent',
    });
    return { body: { id: user.id } };
  });
  route('PUT', '/api/v3/users', (ctx) => {
    const { q } = ctx;
    const id = q.int('Userid', { min: 1 });
    if (id === undefined) throw bad('Userid', 'is required');
    const user = state.users.get(id);
    if (!user || user.deleted || user.enterpriseId !== ctx.ent.id)
      throw new SimHttpError(404, 'Resource Not Found: user');
    if (user.id !== ctx.user.id) requireAdmin(ctx, 'updating another user');
    user.firstName = q.raw('firstName') ?? user.firstName;
    user.lastName = q.raw('lastName') ?? user.lastName;
    for (const k of ['avatar', 'phoneNumber', 'jobTitle']) {
      const v = q.raw(k);
      if (v !== undefined) user.extra[k] = v;
    }
    for (const k of ['audioOnly', 'clickToChat', 'maxOngoingChat']) {
      const v = q.int(k, { min: 0 });
      if (v !== undefined) user.extra[k] = v;
    }
    return { body: { id: user.id } };
  });
  route('DELETE', '/api/v3/users', (ctx) => {
    requireAdmin(ctx, 'deleting a user');
    const id = ctx.q.int('userId', { min: 1 });
    if (id === undefined) throw bad('userId', 'is required');
    const user = state.users.get(id);
    if (!user || user.deleted || user.enterpriseId !== ctx.ent.id)
      throw new SimHttpError(404, 'Resource Not Found: user');
    if (user.id === ctx.user.id) throw bad('userId', 'you cannot delete yourself');
    user.deleted = true;
    return { body: { id: user.id, deleted: true } };
  });
  route('GET', '/api/v3/users/me', (ctx) => {
    const { enterprise_id, ...user } = presentUser(ctx.user);
    const enterprise = { name: ctx.ent.name, quotas: ctx.ent.quotas, features: ctx.ent.features };
    // The camel-case quirk: the id only as `enterpriseId`, nowhere else.
    return {
      body: quirks.camelEnterpriseId
        ? { ...user, enterpriseId: enterprise_id, enterprise }
        : { ...user, enterprise_id, enterprise: { id: ctx.ent.id, ...enterprise } },
    };
  });
  route('GET', '/api/v3/users/id', (ctx) => {
    const email = ctx.q.emails('email')[0];
    if (!email) throw bad('email', 'is required');
    const user = state.liveUsers(ctx.ent.id).find((u) => u.email?.toLowerCase() === email.toLowerCase());
    if (!user) throw new SimHttpError(404, 'Resource Not Found: no user with this e-mail');
    return { body: { id: user.id } };
  });
  route(
    'POST',
    '/api/v3/users/password/reset',
    ({ q }) => {
      const login = q.required('login');
      // Answers OK whether or not the login exists, so it cannot be used to probe accounts.
      state.passwordResets.push({ login, time: now() });
      return { body: 'OK' };
    },
    true,
  );
}
