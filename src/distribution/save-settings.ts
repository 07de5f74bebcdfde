import { t } from '../blocks/text.js';
import type { Config } from '../config/config.js';
import type { Locale } from '../i18n/locale.js';
import type { Logger } from '../observability/logger.js';
import { platformAddressProblem } from '../platform/host-guard.js';
import type { WorkspaceRegistry } from '../services/workspaces.js';
import type { CheckedSettings, WorkspaceSetupDeps } from '../slack/setup/index.js';
import { checkPlatform } from '../startup/checks.js';
import { platformHostsOf, webhookHeaderOf, workspacePlatform } from './launch.js';
import { inWords, type Tenants } from './tenants.js';

export interface SettingsOptions {
  config: Config;
  registry: WorkspaceRegistry;
  tenants: Tenants;
  /** The longest wait between two retries of a failed start (the admin is told of it). */
  retryMaxMs: number;
  logger: Logger;
}

/**
 * What each workspace's setup surface (`slack/setup/`) is given: its saved settings, their save, and
 * why the workspace does not run when its start failed.
 */
export const setupDepsFor =
  (o: SettingsOptions) =>
  (team: string, teamName: string): WorkspaceSetupDeps => ({
    teamName,
    summary: () => o.registry.summary(team),
    save: (settings, by, locale) => saveSettings(o, team, settings, by, locale),
    notStarted: (locale) => {
      const failure = o.tenants.failures.get(team);
      if (!failure) return undefined;
      const next = inWords(failure.retryAt - Date.now());
      return t(locale, 'setup.notStarted', { problem: failure.problem, next });
    },
    logger: o.logger.child({ team }),
  });

/** Tries the settings on the platform; keeps them and restarts the workspace only if it signs in. */
async function saveSettings(
  o: SettingsOptions,
  team: string,
  checked: CheckedSettings,
  by: string,
  locale: Locale,
) {
  const { config, registry, tenants } = o;
  const { ok: _, ...form } = checked;
  const settings = await registry.merge(team, form, by);
  const refused = await platformAddressProblem(settings.platformUrl, platformHostsOf(config));
  if (refused)
    return { ok: false as const, problem: t(locale, 'settings.notSaved.address', { problem: refused }) };
  const probe = workspacePlatform(config, settings, team, o.logger);
  try {
    const check = await checkPlatform(probe, {
      url: settings.platformUrl,
      credentials: settings.credentials.kind,
      // Said in the settings form's words, not the environment's.
      names: {
        url: 'Platform address',
        token: 'API token',
        login: 'Username and password',
        renew: 'sign in with a username and password instead (renewed automatically)',
      },
    });
    if (!check.ok)
      return {
        ok: false as const,
        problem: t(locale, 'settings.notSaved.check', { problem: check.problem }),
      };
  } finally {
    await probe.close();
  }
  // In the workspace's turn: an uninstall that came while the platform was asked has forgotten it,
  // and its settings must not come back (nor revive at a reinstall, which starts afresh).
  const kept = await tenants.inTurn(team, async () => {
    if (!(await registry.install(team))) return false;
    await registry.saveSettings(team, settings);
    // New settings start the backoff afresh: the admin is told of the first retry, seconds away.
    tenants.failures.delete(team);
    await tenants.restart(team);
    return true;
  });
  if (!kept) return { ok: false as const, problem: t(locale, 'settings.notSaved.uninstalled') };
  // "Saved" only when the workspace runs with them: the platform took them, but its store or jobs
  // may still fail here (the database full), and the admin would otherwise wait for nothing.
  const failure = tenants.failures.get(team);
  if (failure)
    return {
      ok: false as const,
      problem: t(locale, 'settings.savedNotStarted', {
        problem: failure.problem,
        next: inWords(failure.retryAt - Date.now()),
        max: inWords(o.retryMaxMs),
      }),
    };
  const notWorking = tenants.running.get(team)?.problem;
  if (notWorking)
    return { ok: false as const, problem: t(locale, 'settings.savedNotRunning', { problem: notWorking }) };
  const publicUrl = config.distribution?.publicUrl;
  return {
    ok: true as const,
    webhook: {
      url: `${publicUrl}/webhooks/platform/${team}`,
      header: webhookHeaderOf(config),
      secret: !!settings.webhookSecret,
    },
  };
}
