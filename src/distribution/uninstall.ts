import { WebClient } from '@slack/web-api';
import { boltLogger } from '../observability/bolt-logger.js';
import type { Logger } from '../observability/logger.js';
import type { WorkspaceRegistry } from '../services/workspaces.js';
import { dropStore, type StoreOptions, workspaceStoreOptions } from '../store/store.js';
import { isSlackTeamId } from '../store/workspaces.js';
import { classifySlackError } from '../util/slack-errors.js';
import type { Tenants } from './tenants.js';

export interface UninstallOptions {
  tenants: Tenants;
  registry: WorkspaceRegistry;
  /** The process's store: a workspace's own is a folder or schema beside it. */
  baseStore: StoreOptions;
  /** Slack's Web API (a Slack double in tests); undefined: Slack's own. */
  slackApiUrl: string | undefined;
  logger: Logger;
}

/**
 * What the uninstall and revocation listeners call, with the event's time: the forgetting runs after
 * their request (a workspace's stop waits for its requests in flight, this one among them).
 */
export async function forgetLater(o: UninstallOptions, team: string, at?: Date): Promise<void> {
  setImmediate(() =>
    forget(o, team, at).catch((error: unknown) =>
      o.logger.error({ team, err: error }, 'could not forget a workspace'),
    ),
  );
}

/**
 * Uninstalled, or its bot token revoked (`at`: when Slack says it happened): stops the workspace
 * and deletes all it kept. An event older than the workspace's latest install is a late one (Slack
 * retries an event for a while; an uninstall's retry can arrive after a reinstall): it is obeyed
 * only if Slack now refuses the installation's token.
 */
function forget(o: UninstallOptions, team: string, at?: Date): Promise<void> {
  return o.tenants.inTurn(team, async () => {
    if (at && (await outlived(o, team, at))) return;
    await o.tenants.drop(team);
    try {
      // Only a Slack-shaped id has a store of its own (its name is made of it): an installation kept
      // under another id (from before ids were checked at install) has none, and is forgotten all the same.
      if (isSlackTeamId(team)) await dropStore(workspaceStoreOptions(o.baseStore, team));
    } finally {
      // Its token and settings go even when its store could not be dropped (the error is logged).
      await o.registry.forget(team);
    }
    o.logger.warn(
      { team },
      'workspace forgotten: its tokens, settings, subscriptions, cards, digests and queue are deleted',
    );
  });
}

/**
 * Whether the workspace's installation outlived an uninstall or revocation of time `at` (the event
 * was about an earlier installation). Only an event clearly after the install (by a minute: Slack's
 * event time is in whole seconds, and its clock is not this host's) is obeyed without asking; for
 * any other, Slack is asked whether the installation's token still works.
 */
async function outlived(o: UninstallOptions, team: string, at: Date): Promise<boolean> {
  const { registry, logger } = o;
  const installedAt = await registry.installedAt(team);
  if (!installedAt || at.getTime() >= installedAt.getTime() + clockMarginMs) return false;
  const install = await registry.install(team).catch(() => undefined);
  if (!install) return false;
  const client = new WebClient(install.botToken, {
    ...(o.slackApiUrl ? { slackApiUrl: o.slackApiUrl } : {}),
    retryConfig: { retries: 1 },
    timeout: 10_000,
    logger: boltLogger(logger),
  });
  try {
    await client.auth.test();
  } catch (error) {
    const refusal = classifySlackError(error);
    if (refusal.kind === 'token') return false;
    // Slack could not be asked: the newer installation is kept (an uninstall it missed shows as
    // the token refused at the next post).
    logger.warn(
      { team, err: error },
      'an uninstall older than the workspace’s latest install: kept, as Slack could not be asked about its token',
    );
    return true;
  }
  logger.info(
    { team, eventAt: at.toISOString(), installedAt: installedAt.toISOString() },
    'a late uninstall or revocation (older than the workspace’s latest install, whose token works): ignored',
  );
  return true;
}

/** How far Slack's clock (an event's time) and this host's (an install's time) may be apart. */
const clockMarginMs = 60_000;
