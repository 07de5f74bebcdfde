import { randomBytes } from 'node:crypto';
import type { DoubleContext, Methods } from './context.js';

/**
 * Tokens: who a bot token is (`auth.test`), a workspace's install through "Add to Slack"
 * (`oauth.v2.access`) and its end (`apps.uninstall`), and Socket Mode's connection for the app-level
 * token (`apps.connections.open`, once `enableSocketMode` turned it on).
 */
export function authMethods({ double, oauthCodes }: DoubleContext): Methods {
  return {
    'auth.test': {
      answer: (_a, token) => {
        const w = token ? double.installed.get(token) : undefined;
        return {
          ok: true,
          url: 'https://double.slack.test/',
          team: w?.teamName ?? 'Double',
          user: 'confdesk',
          team_id: w?.teamId ?? double.teamId,
          user_id: w?.botUserId ?? double.botUserId,
          bot_id: w ? `B${w.teamId.slice(-8)}` : 'BDOUBLE01',
        };
      },
    },
    // A code handed out by `grantInstall`, once, for the app's own credentials.
    'oauth.v2.access': {
      answer: (a) => {
        const app = double.oauthApp;
        if (!app || a.client_id !== app.clientId || a.client_secret !== app.clientSecret)
          return { ok: false, error: 'invalid_client_id' };
        const grant = oauthCodes.get(String(a.code));
        if (!grant) return { ok: false, error: 'invalid_code' };
        oauthCodes.delete(String(a.code));
        const token = `xoxb-${grant.teamId.toLowerCase()}-${randomBytes(6).toString('hex')}`;
        const botUserId = `UBOT${grant.teamId.slice(-6)}`;
        double.installed.set(token, { teamId: grant.teamId, teamName: grant.teamName, botUserId });
        return {
          ok: true,
          app_id: 'ADOUBLE01',
          authed_user: { id: grant.user },
          scope: double.grantedScopes.join(','),
          token_type: 'bot',
          access_token: token,
          bot_user_id: botUserId,
          team: { id: grant.teamId, name: grant.teamName },
          enterprise: null,
          is_enterprise_install: false,
        };
      },
    },
    // The app's own credentials and an installation's token: that installation's tokens stop working.
    'apps.uninstall': {
      answer: (a, token) => {
        const app = double.oauthApp;
        if (!app || a.client_id !== app.clientId) return { ok: false, error: 'invalid_client_id' };
        if (a.client_secret !== app.clientSecret) return { ok: false, error: 'bad_client_secret' };
        if (!token || !double.installed.has(token)) return { ok: false, error: 'invalid_auth' };
        double.revokedTokens.add(token);
        return { ok: true };
      },
    },
    'apps.connections.open': {
      answer: (_a, token) => double.socket?.open(token) ?? { ok: false, error: 'unknown_method' },
    },
  };
}
