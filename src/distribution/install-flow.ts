import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import {
  type CodedError,
  type Installation,
  type InstallationStore,
  InstallProvider,
  type InstallURLOptions,
  type OrgInstallation,
} from '@slack/oauth';
import { WebClient } from '@slack/web-api';
import { boltLogger } from '../observability/bolt-logger.js';
import type { Logger } from '../observability/logger.js';
import { rateLimitedLine } from '../observability/rate-limited-log.js';
import { OnceStateStore } from '../services/install-states.js';
import type { WorkspaceRepository } from '../store/store.js';
import { isSlackTeamId } from '../store/workspaces.js';
import { slackErrorCode } from '../util/slack-errors.js';
import { addToSlackPage, failedPage, installedPage, page, type RefusalReason, refusedPage } from './pages.js';

/*
 * Distribution mode's "Add to Slack" (`GET /slack/install`, `GET /slack/oauth_redirect`): Slack's
 * OAuth v2 flow through `@slack/oauth`'s installer, served as two routes of the process's receiver.
 * Both paths are open to anyone on the internet, so what they let through is narrow: a state works
 * once and only with the cookie of the browser it was given to (`OnceStateStore`); an installation
 * is kept only for a Slack-shaped workspace id, not an org-wide one, and, when the vendor keeps a
 * list (`SLACK_ALLOWED_TEAMS`), only for a workspace on it; anything refused after Slack handed out
 * a token is uninstalled again. What outsiders can cause at will (junk at the redirect) is one
 * warning a minute at most, not an error each.
 */

export interface InstallFlowOptions {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  scopes: string[];
  /** The bot's public address: the redirect URL is `<publicUrl>/slack/oauth_redirect`. */
  publicUrl: string;
  /** Slack's Web API (a Slack double in tests); undefined: Slack's own. */
  apiUrl: string | undefined;
  /** SLACK_ALLOWED_TEAMS: the only workspaces that may install; undefined: any. */
  allowedTeams: readonly string[] | undefined;
  /** Where used states are recorded (shared by the replicas). */
  store: Pick<WorkspaceRepository, 'useInstallState'>;
  installationStore: InstallationStore;
  logger: Logger;
}

/** Why an installation Slack completed is not kept (said on the page and in the log), or undefined. */
export function refusalOf(
  installation: Installation | OrgInstallation,
  allowedTeams: readonly string[] | undefined,
): { reason: RefusalReason; team: string | undefined } | undefined {
  const team = installation.team?.id;
  if (installation.isEnterpriseInstall || !team) return { reason: 'org', team };
  // Each workspace's store is named after its id (a folder, a schema): only Slack's shape is used.
  if (!isSlackTeamId(team)) return { reason: 'team-id', team };
  if (allowedTeams && !allowedTeams.includes(team)) return { reason: 'not-allowed', team };
  return undefined;
}

/** The install flow's two routes, for the receiver's custom routes. */
export function installRoutes(o: InstallFlowOptions): CustomRoute[] {
  const log = o.logger.child({ component: 'install' });
  const bolt = boltLogger(log);
  // The installer writes every failed redirect as an error line of its own before calling `failure`,
  // which says what matters here (and rate-limits what outsiders cause): its error lines go to debug.
  const quiet = { ...bolt, error: bolt.debug };
  const clientOptions = { ...(o.apiUrl ? { slackApiUrl: o.apiUrl } : {}), logger: quiet };
  const installer = new InstallProvider({
    clientId: o.clientId,
    clientSecret: o.clientSecret,
    stateStore: new OnceStateStore(o.store, o.stateSecret),
    installationStore: o.installationStore,
    logger: quiet,
    clientOptions,
    renderHtmlForInstallPath: addToSlackPage,
  });
  const urlOptions: InstallURLOptions = {
    scopes: o.scopes,
    redirectUri: `${o.publicUrl}/slack/oauth_redirect`,
  };
  const junk = rateLimitedLine((fields, message) => log.warn(fields, message));

  /** Slack installed the app and gave a token, but confdesk keeps nothing: the app is removed again. */
  const uninstall = (installation: Installation | OrgInstallation) => {
    const token = installation.bot?.token;
    if (!token) return;
    new WebClient(undefined, { ...clientOptions, retryConfig: { retries: 2 }, timeout: 10_000 }).apps
      .uninstall({ token, client_id: o.clientId, client_secret: o.clientSecret })
      .catch((error: unknown) =>
        log.warn(
          { err: error, team: installation.team?.id },
          'a refused installation could not be removed from its workspace: remove confdesk there by hand',
        ),
      );
  };

  const callbackOptions = {
    afterInstallation: async (
      installation: Installation | OrgInstallation,
      _options: InstallURLOptions,
      _req: IncomingMessage,
      res: ServerResponse,
    ): Promise<boolean> => {
      const refused = refusalOf(installation, o.allowedTeams);
      if (!refused) return true;
      uninstall(installation);
      log.warn(
        { team: refused.team, reason: refused.reason },
        `an installation was refused (${refusedLog[refused.reason]}): nothing kept, confdesk removed from the workspace again`,
      );
      page(res, 403, refusedPage(refused.reason, installation.team?.name ?? 'this workspace', refused.team));
      return false;
    },
    success: (
      installation: Installation | OrgInstallation,
      _o: unknown,
      _req: unknown,
      res: ServerResponse,
    ) => page(res, 200, installedPage(installation.team?.name ?? 'your workspace')),
    failure: (error: CodedError, _o: unknown, _req: unknown, res: ServerResponse) => {
      // Slack's own refusal of the code (a made-up, reused or expired one) is an outsider's doing too.
      const slackSaid = slackErrorCode(error);
      if (slackSaid !== undefined || outsiderCodes.has(error.code))
        junk(
          { reason: slackSaid ?? error.code },
          'refused a request to the OAuth redirect: no code or state, a state not from this browser (forged, expired or used), or a code Slack refused',
        );
      else log.error({ err: error, code: error.code }, 'an installation did not complete');
      page(res, 400, failedPage(slackSaid ?? error.code ?? 'unknown error'));
    },
  };

  const answer = (what: string, work: Promise<void>, res: ServerResponse) =>
    work.catch((error: unknown) => {
      log.error({ err: error }, `${what} failed`);
      if (!res.headersSent) page(res, 500, failedPage('internal error'));
    });
  return [
    {
      path: '/slack/install',
      method: ['GET'],
      handler: (req, res) =>
        void answer('the install page', installer.handleInstallPath(req, res, {}, urlOptions), res),
    },
    {
      path: '/slack/oauth_redirect',
      method: ['GET'],
      handler: (req, res) =>
        void answer('the OAuth redirect', installer.handleCallback(req, res, callbackOptions), res),
    },
  ];
}

/**
 * `@slack/oauth`'s codes for a redirect nobody should have sent: without a code or a state, with a
 * state this browser was not given (forged, expired, used already), or a cancelled install.
 */
const outsiderCodes: ReadonlySet<string> = new Set([
  'slack_oauth_missing_code',
  'slack_oauth_missing_state',
  'slack_oauth_invalid_state',
  'slack_oauth_installer_authorization_error',
]);

const refusedLog: Record<RefusalReason, string> = {
  org: 'an org-wide install',
  'team-id': 'not a Slack team id',
  'not-allowed': 'not in SLACK_ALLOWED_TEAMS',
};
