import { iso } from '../present.js';
import { bad, SimHttpError } from '../rules.js';
import type { RouteContext } from './context.js';

/** Authentication (platform-facts.md): password grant tokens and their revocation. */
export function registerAuthRoutes(sim: RouteContext) {
  const { route, state, now, issueToken, tokens, settings } = sim;
  route(
    'POST',
    '/api/v3/token',
    ({ q }) => {
      const grant = q.raw('grant_type') ?? 'password';
      if (grant !== 'password') throw bad('grant_type', 'only password is supported by the simulator');
      const username = q.required('username');
      const password = q.required('password');
      const user = [...state.users.values()].find(
        (u) => !u.deleted && (u.username === username || u.email === username),
      );
      if (!user || user.password !== password) throw new SimHttpError(401, 'Invalid credentials');
      return {
        body: {
          access_token: issueToken(user),
          created_at: iso(now()),
          expires_in: settings.tokenTtl,
          token_type: 'Bearer',
        },
      };
    },
    true,
  );
  route('POST', '/api/v3/token/revoke', (ctx) => {
    if (!ctx.isStaticAdmin) tokens.delete(ctx.token);
    return { body: { revoked: true } };
  });
}
