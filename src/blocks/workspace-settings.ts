import type { HomeView, ModalView } from '@slack/types';
import type { TicketCreators } from '../domain/workspace-settings.js';
import type { Locale } from '../i18n/locale.js';
import { languages } from './conference-form.js';
import { ids } from './ids.js';
import { input, option, textInput } from './inputs.js';
import { actions, button, context, header, plain, section } from './kit.js';
import { limits } from './limits.js';
import { date, escaped, type Mrkdwn, md, mention } from './mrkdwn.js';
import { t, tPlain } from './text.js';

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
  channelLanguage: 'channel_language',
  ticketCreators: 'ticket_creators',
  webhookSecret: 'webhook_secret',
} as const;

/** What the form shows of the saved settings (no secret). */
export interface SettingsShown {
  platformUrl: string;
  credentialsKind: 'token' | 'password';
  serviceKey: string | undefined;
  language: string | undefined;
  /** The language of what confdesk writes in the workspace's channels (undefined: English). */
  channelLanguage?: Locale | undefined;
  ticketCreators: TicketCreators;
  updatedBy: string;
  updatedAt: Date;
  /** Whether a webhook secret is saved. */
  webhooks: boolean;
}

/** The languages of channel messages, each named in itself. */
const channelLanguages: Record<Locale, string> = { en: 'English', fr: 'Français' };

/**
 * The settings modal in the admin's language; `problem`: why the last save was refused (the
 * platform's answer), on top.
 */
export function buildWorkspaceSettingsView(
  locale: Locale,
  saved: SettingsShown | undefined,
  problem?: Mrkdwn,
): ModalView {
  const kind = saved?.credentialsKind ?? 'token';
  const lang = languages.find((l) => l.value === saved?.language);
  const channelLanguage = saved?.channelLanguage ?? 'en';
  const creators: Record<TicketCreators, string> = {
    account: tPlain(locale, 'settings.creators.account'),
    admin: tPlain(locale, 'settings.creators.admin'),
  };
  const kinds = {
    token: tPlain(locale, 'settings.kind.token'),
    password: tPlain(locale, 'settings.kind.password'),
  };
  return {
    type: 'modal',
    callback_id: ids.views.workspaceSettings,
    title: plain(tPlain(locale, 'settings.title'), limits.viewTitle),
    submit: plain(tPlain(locale, 'settings.save'), limits.viewButton),
    close: plain(tPlain(locale, 'settings.cancel'), limits.viewButton),
    blocks: [
      ...(problem ? [section(md`:warning: ${problem}`)] : []),
      context(
        saved
          ? t(locale, 'settings.savedBy', {
              admin: mention(saved.updatedBy),
              when: date(locale, saved.updatedAt, '{date_short_pretty} {time}'),
            })
          : t(locale, 'settings.intro'),
      ),
      input(
        settingsFields.platformUrl,
        tPlain(locale, 'settings.platformUrl'),
        textInput(saved?.platformUrl, { placeholder: plain('https://cloud.apizee.com', 150) }),
        {
          optional: false,
        },
      ),
      input(
        settingsFields.kind,
        tPlain(locale, 'settings.kind'),
        {
          type: 'radio_buttons',
          options: [option('token', kinds.token), option('password', kinds.password)],
          initial_option: option(kind, kinds[kind]),
        },
        { optional: false },
      ),
      input(settingsFields.token, tPlain(locale, 'settings.token'), textInput(undefined), {
        hint: tPlain(
          locale,
          saved?.credentialsKind === 'token' ? 'settings.token.hintKeep' : 'settings.token.hint',
        ),
      }),
      input(settingsFields.username, tPlain(locale, 'settings.username'), textInput(undefined), {
        hint: tPlain(
          locale,
          saved?.credentialsKind === 'password' ? 'settings.username.hintKeep' : 'settings.username.hint',
        ),
      }),
      input(settingsFields.password, tPlain(locale, 'settings.password'), textInput(undefined)),
      input(
        settingsFields.serviceKey,
        tPlain(locale, 'settings.serviceKey'),
        textInput(saved?.serviceKey, { max_length: 32 }),
        {
          hint: tPlain(locale, 'settings.serviceKey.hint'),
        },
      ),
      input(
        settingsFields.language,
        tPlain(locale, 'settings.language'),
        {
          type: 'static_select',
          options: languages.map((l) => option(l.value, l.label)),
          ...(lang ? { initial_option: option(lang.value, lang.label) } : {}),
        },
        { hint: tPlain(locale, 'settings.language.hint') },
      ),
      input(
        settingsFields.channelLanguage,
        tPlain(locale, 'settings.channelLanguage'),
        {
          type: 'static_select',
          options: Object.entries(channelLanguages).map(([v, label]) => option(v, label)),
          initial_option: option(channelLanguage, channelLanguages[channelLanguage]),
        },
        { optional: false, hint: tPlain(locale, 'settings.channelLanguage.hint') },
      ),
      input(
        settingsFields.ticketCreators,
        tPlain(locale, 'settings.creators'),
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
      input(settingsFields.webhookSecret, tPlain(locale, 'settings.webhook'), textInput(undefined), {
        hint: tPlain(locale, saved?.webhooks ? 'settings.webhook.hintKeep' : 'settings.webhook.hint'),
      }),
    ],
  };
}

/**
 * After a save, in the admin's language: where the platform's webhooks for this workspace go, and the
 * header carrying the secret.
 */
export function buildSettingsSavedView(
  locale: Locale,
  webhook: { url: string; header: string; secret: boolean },
): ModalView {
  return {
    type: 'modal',
    callback_id: ids.views.working,
    title: plain(tPlain(locale, 'settings.title'), limits.viewTitle),
    close: plain(tPlain(locale, 'settings.done'), limits.viewButton),
    blocks: [
      section(t(locale, 'settings.savedOk')),
      section(
        webhook.secret
          ? t(locale, 'settings.webhooksOn', { url: escaped(webhook.url), header: webhook.header })
          : t(locale, 'settings.webhooksOff', { url: escaped(webhook.url) }),
      ),
      context(t(locale, 'settings.adminsOnly')),
    ],
  };
}

/** Home in a workspace where confdesk is installed but not set up yet, in the person's language. */
export function buildSetupHome(o: { locale: Locale; teamName: string; admin: boolean }): HomeView {
  return {
    type: 'home',
    blocks: [
      header(tPlain(o.locale, 'setup.header')),
      section(t(o.locale, o.admin ? 'setup.admin' : 'setup.member', { team: o.teamName })),
      ...(o.admin
        ? [
            actions([
              button(tPlain(o.locale, 'setup.open'), ids.actions.workspaceSettingsOpen, {
                value: 'open',
                style: 'primary',
              }),
            ]),
          ]
        : []),
    ],
  };
}

/** The answer to any command before the workspace is set up, in the person's language. */
export const notSetUp = (locale: Locale, admin: boolean): Mrkdwn =>
  t(locale, admin ? 'setup.notSetUp.admin' : 'setup.notSetUp.member');
