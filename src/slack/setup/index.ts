import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { ids } from '../../blocks/ids.js';
import { textMessage } from '../../blocks/kit.js';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import { t, tPlain } from '../../blocks/text.js';
import {
  buildSettingsSavedView,
  buildSetupHome,
  buildWorkspaceSettingsView,
  notSetUp,
  type SettingsShown,
  settingsFields,
} from '../../blocks/workspace-settings.js';
import { checkSettingsForm, type FormCheck } from '../../domain/workspace-settings.js';
import { type Locale, localeOfSlack } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import type { ViewSubmission } from '../deps.js';
import { viewState } from '../input/view-state.js';
import { submitThenWork } from '../openers/working-modal.js';
import type { ClickHandler } from '../runtime/action-routes.js';
import { CommandRoutes, type VerbRun, type VerbTable } from '../runtime/command-routes.js';
import type { Surfaces } from '../runtime/surfaces.js';

/*
 * Distribution mode: a workspace's platform settings, for its Slack admins only (workspace
 * admins and owners, as Slack says in users.info), from `/conference admin settings` or Home. Before
 * they are saved, every command is answered with how to set confdesk up.
 */

/** The settings the form made, checked; `save` tries them on the platform before keeping them. */
export type CheckedSettings = Extract<FormCheck, { ok: true }>;

export interface WorkspaceSetupDeps {
  teamName: string;
  /** Why the set-up workspace is not running now (its start failed and is retried), if it is not. */
  notStarted?(locale: Locale): Mrkdwn | undefined;
  /** What the form shows of the saved settings. */
  summary(): Promise<SettingsShown | undefined>;
  /** Checks the settings on the platform, saves them and (re)starts the workspace; says why not in `locale`. */
  save(
    settings: CheckedSettings,
    by: string,
    locale: Locale,
  ): Promise<
    { ok: true; webhook: { url: string; header: string; secret: boolean } } | { ok: false; problem: Mrkdwn }
  >;
  logger: Logger;
}

/**
 * Whether Slack says the person administers the workspace (admin, owner or primary owner), and their
 * language, from the same `users.info` (what they see here is written in it).
 */
export async function workspaceAdmin(
  client: WebClient,
  user: string,
): Promise<{ admin: boolean; locale: Locale }> {
  const r = await client.users.info({ user, include_locale: true });
  const u = r.user as
    | { is_admin?: boolean; is_owner?: boolean; is_primary_owner?: boolean; locale?: string }
    | undefined;
  return {
    admin: Boolean(u?.is_admin || u?.is_owner || u?.is_primary_owner),
    locale: localeOfSlack(u?.locale),
  };
}

const refusal = (locale: Locale) => t(locale, 'settings.refused');

async function openSettings(
  deps: WorkspaceSetupDeps,
  client: WebClient,
  triggerId: string,
  locale: Locale,
): Promise<void> {
  await client.views.open({
    trigger_id: triggerId,
    view: buildWorkspaceSettingsView(locale, await deps.summary()),
  });
}

/**
 * `/conference admin settings` in distribution mode: the row of the admin verb table that this mode
 * supplies. A person who is not a Slack admin is refused in the ack; an admin gets the form.
 */
export const handleSettingsCommand =
  (deps: WorkspaceSetupDeps): VerbRun<unknown, unknown> =>
  async (_, c) => {
    const { admin, locale } = await workspaceAdmin(c.client, c.user);
    if (!admin) return { say: textMessage(refusal(locale)) };
    return { later: () => openSettings(deps, c.client, c.triggerId, locale) };
  };

/** Home's *Set up* button: the form, for a Slack admin (the button shows to admins only). */
export const handleSettingsOpen =
  (deps: WorkspaceSetupDeps): ClickHandler =>
  async ({ user, client, triggerId }) => {
    const { admin, locale } = await workspaceAdmin(client, user);
    if (admin) await openSettings(deps, client, triggerId, locale);
  };

/**
 * The settings form's submission: a person who is not a Slack admin and a form with mistakes are
 * answered inline; otherwise "Signing in…", then the settings tried on the platform and the outcome
 * (the webhook address, or the form again with why they were not saved).
 */
export const handleSettingsSubmit =
  (deps: WorkspaceSetupDeps) =>
  async (submission: ViewSubmission): Promise<void> => {
    const { ack, body, view, client } = submission;
    const user = body.user.id;
    // A forged submission from someone else is refused like the command: nothing is read or saved.
    const { admin, locale } = await workspaceAdmin(client, user);
    if (!admin)
      return ack({
        response_action: 'errors',
        errors: { [settingsFields.platformUrl]: tPlain(locale, 'settings.refused') },
      });
    const { str, get, option } = viewState(view.state.values);
    const saved = await deps.summary();
    const check = checkSettingsForm(
      {
        platformUrl: str(settingsFields.platformUrl) ?? '',
        kind: option(settingsFields.kind) === 'password' ? 'password' : 'token',
        token: str(settingsFields.token) ?? '',
        username: str(settingsFields.username) ?? '',
        password: get(settingsFields.password)?.value ?? '',
        serviceKey: str(settingsFields.serviceKey) ?? '',
        language: option(settingsFields.language) ?? '',
        channelLanguage: option(settingsFields.channelLanguage) ?? '',
        ticketCreators: option(settingsFields.ticketCreators) ?? '',
        webhookSecret: str(settingsFields.webhookSecret) ?? '',
      },
      saved,
    );
    if (!check.ok) {
      const errors = Object.fromEntries(
        Object.entries(check.errors).map(([field, p]) => [
          settingsFields[field as keyof typeof settingsFields],
          tPlain(locale, p.key, p.values),
        ]),
      );
      return ack({ response_action: 'errors', errors });
    }
    await submitThenWork(
      submission,
      {
        title: tPlain(locale, 'settings.title'),
        working: t(locale, 'settings.signingIn'),
        logger: deps.logger,
      },
      async ({ show, log }) => {
        const outcome = await deps.save(check, user, locale);
        await show(
          outcome.ok
            ? buildSettingsSavedView(locale, outcome.webhook)
            : buildWorkspaceSettingsView(locale, await deps.summary(), outcome.problem),
        );
        log.info(
          { saved: outcome.ok },
          outcome.ok ? 'workspace settings saved' : 'workspace settings refused',
        );
      },
    );
  };

/** Home before the workspace is set up: what confdesk needs, and the settings button for admins. */
export const handleSetupHome =
  (deps: Pick<WorkspaceSetupDeps, 'teamName'>) =>
  async ({
    event,
    client,
  }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs): Promise<void> => {
    if (event.tab !== 'home') return;
    const { admin, locale } = await workspaceAdmin(client, event.user).catch(() => ({
      admin: false,
      locale: 'en' as const,
    }));
    await client.views.publish({
      user_id: event.user,
      view: buildSetupHome({ locale, teamName: deps.teamName, admin }),
    });
  };

/**
 * Any command but the settings, before set-up: why the workspace does not run when its start failed
 * (it is retried), else how to set confdesk up (said to an admin as to someone who can).
 */
export const handleNotSetUp =
  (deps: Pick<WorkspaceSetupDeps, 'notStarted'>): VerbRun<unknown, unknown> =>
  async (_, c) => {
    const { admin, locale } = await workspaceAdmin(c.client, c.user).catch(() => ({
      admin: false,
      locale: 'en' as const,
    }));
    const notStarted = deps.notStarted?.(locale);
    if (notStarted) return { say: textMessage(notStarted) };
    return { say: textMessage(notSetUp(locale, admin)) };
  };

/** What a command says before set-up: the settings (`/conference admin settings`), or anything else. */
type SetupCommand = { kind: 'settings' } | { kind: 'notSetUp' };

/** The same words as `/conference`'s admin table takes for its settings row; every other text is not set up. */
const readSetupCommand = (text: string): SetupCommand =>
  /^\s*admin\s+settings\s*$/i.test(text) ? { kind: 'settings' } : { kind: 'notSetUp' };

/**
 * The commands of a workspace that waits for its settings: its verb table has the settings row and,
 * for every other text, the "not set up" answer (no help: until set-up, there is nothing else to do).
 */
const setupVerbs: VerbTable<SetupCommand, WorkspaceSetupDeps> = {
  settings: { usage: [], run: (words, c, deps) => handleSettingsCommand(deps)(words, c, deps) },
  notSetUp: { usage: [], run: (words, c, deps) => handleNotSetUp(deps)(words, c, deps) },
};

/** The settings' button and form, in a whole confdesk (its command is the admin table's row) and before set-up. */
export function registerWorkspaceSettings(on: Surfaces, deps: WorkspaceSetupDeps): void {
  on.actions.on(ids.actions.workspaceSettingsOpen, handleSettingsOpen(deps));
  on.listeners.view(ids.views.workspaceSettings, handleSettingsSubmit(deps));
}

/**
 * A workspace without working settings: its commands (`setupVerbs`: `/conference` and `/ticket`
 * alike), its Home, the settings' button and form.
 */
export function registerSetupOnly(on: Surfaces, deps: WorkspaceSetupDeps): void {
  for (const command of Object.values(ids.commands)) {
    const routes = new CommandRoutes<SetupCommand, WorkspaceSetupDeps>({
      title: (locale) => t(locale, 'setup.commandTitle', { command }),
      // `/ticket admin settings` is not the settings' command: only `/conference`'s words are read.
      read: command === ids.commands.conference ? readSetupCommand : () => ({ kind: 'notSetUp' }),
      verbs: setupVerbs,
      deps,
      logger: deps.logger,
      // Nothing here asks the platform.
      waitMs: () => 0,
    });
    on.listeners.command(command, routes.listener);
  }
  on.listeners.event('app_home_opened', handleSetupHome(deps));
  registerWorkspaceSettings(on, deps);
}
