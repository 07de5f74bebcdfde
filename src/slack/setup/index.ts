import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  App,
  BlockAction,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { ids } from '../../blocks/ids.js';
import { buildWorkingView } from '../../blocks/modal.js';
import { type Mrkdwn, md } from '../../blocks/mrkdwn.js';
import {
  buildSettingsSavedView,
  buildSetupHome,
  buildWorkspaceSettingsView,
  notSetUp,
  type SettingsShown,
  settingsFields,
} from '../../blocks/workspace-settings.js';
import { checkSettingsForm, type FormCheck } from '../../domain/workspace-settings.js';
import type { Logger } from '../../observability/logger.js';
import { viewState } from '../input/view-state.js';
import { ephemeral } from '../replies/ephemeral.js';
import { detach, requestLog } from '../runtime/after-ack.js';

/*
 * Distribution mode: a workspace's platform settings, for its Slack admins only (workspace
 * admins and owners, as Slack says in users.info), from `/conference admin settings` or Home. Before
 * they are saved, every command is answered with how to set confdesk up.
 */

/** The settings the form made, checked; `save` tries them on the platform before keeping them. */
export type CheckedSettings = Extract<FormCheck, { ok: true }>;

export interface WorkspaceSetupDeps {
  teamName: string;
  /** Whether the workspace is set up (its platform settings saved and working). */
  configured(): boolean;
  /** Why the set-up workspace is not running now (its start failed and is retried), if it is not. */
  notStarted?(): Mrkdwn | undefined;
  /** What the form shows of the saved settings. */
  summary(): Promise<SettingsShown | undefined>;
  /** Checks the settings on the platform, saves them and (re)starts the workspace. */
  save(
    settings: CheckedSettings,
    by: string,
  ): Promise<
    { ok: true; webhook: { url: string; header: string; secret: boolean } } | { ok: false; problem: Mrkdwn }
  >;
  logger: Logger;
}

const settingsCommand = /^\s*(admin\s+)?settings\s*$/i;

/** Whether Slack says the person administers the workspace (admin, owner or primary owner). */
export async function isWorkspaceAdmin(client: WebClient, user: string): Promise<boolean> {
  const r = await client.users.info({ user });
  const u = r.user as { is_admin?: boolean; is_owner?: boolean; is_primary_owner?: boolean } | undefined;
  return Boolean(u?.is_admin || u?.is_owner || u?.is_primary_owner);
}

const refusal = md`Only this workspace's Slack admins and owners can change confdesk's settings.`;

async function openSettings(deps: WorkspaceSetupDeps, client: WebClient, triggerId: string): Promise<void> {
  await client.views.open({ trigger_id: triggerId, view: buildWorkspaceSettingsView(await deps.summary()) });
}

/** The settings command, the Home button, the form, and (before set-up) every other command's answer. */
export function registerWorkspaceSetup(app: App, deps: WorkspaceSetupDeps): void {
  app.use(async (args: AnyMiddlewareArgs & AllMiddlewareArgs) => {
    const body = args.body as { command?: string; text?: string; user_id?: string; trigger_id?: string };
    if (!body.command) return args.next();
    const ack = (args as unknown as { ack: (m?: unknown) => Promise<void> }).ack;
    if (body.command === ids.commands.conference && settingsCommand.test(body.text ?? '')) {
      if (!(await isWorkspaceAdmin(args.client, body.user_id ?? ''))) return ack(ephemeral(refusal));
      await ack();
      return openSettings(deps, args.client, body.trigger_id ?? '');
    }
    if (deps.configured()) return args.next();
    const notStarted = deps.notStarted?.();
    if (notStarted) return ack(ephemeral(notStarted));
    await ack(
      ephemeral(notSetUp(await isWorkspaceAdmin(args.client, body.user_id ?? '').catch(() => false))),
    );
  });

  app.action<BlockAction>(ids.actions.workspaceSettingsOpen, async ({ ack, body, client }) => {
    await ack();
    if (await isWorkspaceAdmin(client, body.user.id)) await openSettings(deps, client, body.trigger_id);
  });

  app.view(
    ids.views.workspaceSettings,
    async ({ ack, body, view, client }: SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs) => {
      const user = body.user.id;
      const log = requestLog(deps.logger, { user, team: body.team?.id, callback: view.callback_id });
      // A forged submission from someone else is refused like the command: nothing is read or saved.
      if (!(await isWorkspaceAdmin(client, user)))
        return ack({ response_action: 'errors', errors: { [settingsFields.platformUrl]: refusal.text } });
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
          ticketCreators: option(settingsFields.ticketCreators) ?? '',
          webhookSecret: str(settingsFields.webhookSecret) ?? '',
        },
        saved,
      );
      if (!check.ok) {
        const errors = Object.fromEntries(
          Object.entries(check.errors).map(([field, message]) => [
            settingsFields[field as keyof typeof settingsFields],
            message,
          ]),
        );
        return ack({ response_action: 'errors', errors });
      }
      await ack({
        response_action: 'update',
        view: buildWorkingView('confdesk settings', md`Signing in to the platform with these settings…`),
      });
      detach(log, async () => {
        const outcome = await deps.save(check, user);
        const next = outcome.ok
          ? buildSettingsSavedView(outcome.webhook)
          : buildWorkspaceSettingsView(await deps.summary(), outcome.problem);
        await client.views.update({ view_id: view.id, view: next });
        log.info(
          { saved: outcome.ok },
          outcome.ok ? 'workspace settings saved' : 'workspace settings refused',
        );
      });
    },
  );
}

/** Home before the workspace is set up: what confdesk needs, and the settings button for admins. */
export function registerSetupHome(app: App, deps: Pick<WorkspaceSetupDeps, 'teamName'>): void {
  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    const admin = await isWorkspaceAdmin(client, event.user).catch(() => false);
    await client.views.publish({
      user_id: event.user,
      view: buildSetupHome({ teamName: deps.teamName, admin }),
    });
  });
}
