import type { HomeView, ModalView } from '@slack/types';
import type { TicketCreators } from '../domain/workspace-settings.js';
import { languages } from './conference-form.js';
import { ids } from './ids.js';
import { input, option, textInput } from './inputs.js';
import { actions, button, context, header, plain, section } from './kit.js';
import { limits } from './limits.js';
import { date, escaped, type Mrkdwn, md, mention } from './mrkdwn.js';

/*
 * Distribution mode: a workspace's platform settings, for its Slack admins. The credentials
 * are never shown back: the form says which kind is saved and leaves the fields empty.
 */

/** The block ids of the settings form (each input answers under action id `value`). */
export const settingsFields = {
  platformUrl: 'platform_url',
  kind: 'credentials_kind',
  token: 'platform_token',
  username: 'platform_username',
  password: 'platform_password',
  serviceKey: 'service_key',
  language: 'language',
  ticketCreators: 'ticket_creators',
  webhookSecret: 'webhook_secret',
} as const;

/** What the form shows of the saved settings (no secret). */
export interface SettingsShown {
  platformUrl: string;
  credentialsKind: 'token' | 'password';
  serviceKey: string | undefined;
  language: string | undefined;
  ticketCreators: TicketCreators;
  updatedBy: string;
  updatedAt: Date;
  /** Whether a webhook secret is saved. */
  webhooks: boolean;
}

const creators: Record<TicketCreators, string> = {
  account: 'Anyone with a platform account',
  admin: 'Video platform admins only',
};

/** The settings modal; `problem`: why the last save was refused (the platform's answer), on top. */
export function buildWorkspaceSettingsView(saved: SettingsShown | undefined, problem?: Mrkdwn): ModalView {
  const kind = saved?.credentialsKind ?? 'token';
  const keep = saved ? ' Leave it empty to keep the saved one.' : '';
  const lang = languages.find((l) => l.value === saved?.language);
  return {
    type: 'modal',
    callback_id: ids.views.workspaceSettings,
    title: plain('confdesk settings', limits.viewTitle),
    submit: plain('Save', limits.viewButton),
    close: plain('Cancel', limits.viewButton),
    blocks: [
      ...(problem ? [section(md`:warning: ${problem}`)] : []),
      context(
        saved
          ? md`Saved by ${mention(saved.updatedBy)} on ${date(saved.updatedAt)}. Credentials are kept encrypted and never shown: type new ones to replace them.`
          : md`confdesk acts on the video platform with one account of yours: an admin account, so that it can see every ticket and conference it is asked about. Credentials are kept encrypted and never shown.`,
      ),
      input(
        settingsFields.platformUrl,
        'Platform address',
        textInput(saved?.platformUrl, { placeholder: plain('https://cloud.apizee.com', 150) }),
        {
          optional: false,
        },
      ),
      input(
        settingsFields.kind,
        'Sign in with',
        {
          type: 'radio_buttons',
          options: [option('token', 'An API token'), option('password', 'A username and password')],
          initial_option: option(kind, kind === 'token' ? 'An API token' : 'A username and password'),
        },
        { optional: false },
      ),
      input(settingsFields.token, 'API token', textInput(undefined), {
        hint: `With "An API token".${saved?.credentialsKind === 'token' ? keep : ''}`,
      }),
      input(settingsFields.username, 'Username', textInput(undefined), {
        hint: `With "A username and password".${saved?.credentialsKind === 'password' ? keep : ''}`,
      }),
      input(settingsFields.password, 'Password', textInput(undefined)),
      input(
        settingsFields.serviceKey,
        'Default service key',
        textInput(saved?.serviceKey, { max_length: 32 }),
        {
          hint: 'Used for conferences and tickets created without one.',
        },
      ),
      input(settingsFields.language, 'Default notification language', {
        type: 'static_select',
        options: languages.map((l) => option(l.value, l.label)),
        ...(lang ? { initial_option: option(lang.value, lang.label) } : {}),
      }),
      input(
        settingsFields.ticketCreators,
        'Who may create tickets',
        {
          type: 'radio_buttons',
          options: Object.entries(creators).map(([v, label]) => option(v, label)),
          initial_option: option(
            saved?.ticketCreators ?? 'account',
            creators[saved?.ticketCreators ?? 'account'],
          ),
        },
        { optional: false },
      ),
      input(settingsFields.webhookSecret, 'Webhook secret', textInput(undefined), {
        hint: `Any long random string (openssl rand -hex 24): type the same in the platform's webhook settings, so that confdesk hears of ticket events within seconds. Empty: ${
          saved?.webhooks ? 'keep the saved one' : 'no webhooks, confdesk polls'
        }.`,
      }),
    ],
  };
}

/** After a save: where the platform's webhooks for this workspace go, and the header carrying the secret. */
export function buildSettingsSavedView(webhook: { url: string; header: string; secret: boolean }): ModalView {
  return {
    type: 'modal',
    callback_id: ids.views.working,
    title: plain('confdesk settings', limits.viewTitle),
    close: plain('Done', limits.viewButton),
    blocks: [
      section(
        md`:white_check_mark: Saved: the platform took the credentials, and confdesk now works in this workspace.`,
      ),
      section(
        webhook.secret
          ? md`*Webhooks*: in the platform's console, add a webhook to ${escaped(webhook.url)} for the ticket events, with the header \`${escaped(webhook.header)}\` set to the secret you typed.`
          : md`*Webhooks* are off (no secret saved): confdesk finds ticket changes by polling. To hear of them within seconds, type a webhook secret here, then add a webhook to ${escaped(webhook.url)} in the platform's console.`,
      ),
      context(md`Only this workspace's Slack admins can open these settings.`),
    ],
  };
}

/** Home in a workspace where confdesk is installed but not set up yet. */
export function buildSetupHome(o: { teamName: string; admin: boolean }): HomeView {
  return {
    type: 'home',
    blocks: [
      header('confdesk is not set up yet'),
      section(
        md`confdesk is installed in ${escaped(o.teamName)} but does not know your video platform account yet. ${
          o.admin
            ? md`As a workspace admin, open the settings and give it the platform's address and an admin account's credentials.`
            : md`A workspace admin sets it up from this Home tab (or with \`/conference admin settings\`).`
        }`,
      ),
      ...(o.admin
        ? [
            actions([
              button('Open settings', ids.actions.workspaceSettingsOpen, { value: 'open', style: 'primary' }),
            ]),
          ]
        : []),
    ],
  };
}

/** The answer to any command before the workspace is set up. */
export const notSetUp = (admin: boolean): Mrkdwn =>
  admin
    ? md`confdesk is not set up in this workspace yet: run \`/conference admin settings\` (or open its Home tab) and give it your video platform's address and an admin account.`
    : md`confdesk is not set up in this workspace yet: ask a workspace admin to open its settings (\`/conference admin settings\`).`;
