import { isLocale, type Locale } from '../i18n/locale.js';
import { serviceKey } from '../platform/schemas.js';
import type { Action, Rule } from './policy.js';
import { type Problem, problem } from './problem.js';

/*
 * A workspace's platform settings in distribution mode: what its Slack admins type in the
 * settings modal, checked before anything is saved or sent. Pure: the registry seals and stores.
 */

/** Who may create tickets from Slack in the workspace. */
export type TicketCreators = 'account' | 'admin';

/** The settings form's fields as typed (credentials empty: keep the saved ones). */
export interface SettingsForm {
  platformUrl: string;
  kind: 'token' | 'password';
  token: string;
  username: string;
  password: string;
  serviceKey: string;
  language: string;
  /** The language of channel messages (`en`, `fr`); empty: English. */
  channelLanguage?: string | undefined;
  ticketCreators: string;
  /** Typed by the admin, the same in the platform's webhook settings; empty: keep the saved one. */
  webhookSecret: string;
}

/** What a form check answers: the settings, or what to fix under each field (a catalog key). */
export type FormCheck =
  | {
      ok: true;
      platformUrl: string;
      /** Undefined: keep the saved credentials (the fields were left empty). */
      credentials:
        | { kind: 'token'; token: string }
        | { kind: 'password'; username: string; password: string }
        | undefined;
      serviceKey: string | undefined;
      language: string | undefined;
      /** What confdesk writes in the workspace's channels is in this language. */
      channelLanguage: Locale;
      ticketCreators: TicketCreators;
      /** Undefined: keep the saved one (or none: webhooks off, the poller finds the changes). */
      webhookSecret: string | undefined;
    }
  | { ok: false; errors: Partial<Record<keyof SettingsForm, Problem>> };

/**
 * Checks the form. `hasSaved`: credentials are already saved for this platform URL, so empty
 * credential fields keep them; a new URL needs new credentials (they would not be valid there).
 */
export function checkSettingsForm(form: SettingsForm, saved: { platformUrl: string } | undefined): FormCheck {
  const errors: Partial<Record<keyof SettingsForm, Problem>> = {};
  const url = form.platformUrl.trim().replace(/\/+$/, '');
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (
    !parsed ||
    !/^https?:$/.test(parsed.protocol) ||
    parsed.username ||
    parsed.password ||
    parsed.search ||
    parsed.hash ||
    /[?#]/.test(url)
  )
    errors.platformUrl = problem('settings.error.platformUrl');
  const keep = saved !== undefined && saved.platformUrl === url;
  let credentials: Extract<FormCheck, { ok: true }>['credentials'];
  if (form.kind === 'token') {
    if (form.token.trim()) credentials = { kind: 'token', token: form.token.trim() };
    else if (!keep) errors.token = problem('settings.error.token');
  } else {
    const username = form.username.trim();
    if (username && form.password) credentials = { kind: 'password', username, password: form.password };
    else if (username || form.password || !keep)
      errors[username ? 'password' : 'username'] = problem('settings.error.credentials');
  }
  const key = form.serviceKey.trim();
  if (key && !serviceKey.safeParse(key).success) errors.serviceKey = problem('settings.error.serviceKey');
  const language = form.language.trim() || undefined;
  if (language && !/^[a-z]{2}$/.test(language)) errors.language = problem('settings.error.language');
  const channelLanguage = form.channelLanguage?.trim() || 'en';
  if (!isLocale(channelLanguage)) errors.channelLanguage = problem('settings.error.language');
  const creators = form.ticketCreators || 'account';
  if (creators !== 'account' && creators !== 'admin')
    errors.ticketCreators = problem('settings.error.creators');
  const webhookSecret = form.webhookSecret.trim() || undefined;
  if (webhookSecret && (webhookSecret.length < 16 || /\s/.test(webhookSecret)))
    errors.webhookSecret = problem('settings.error.webhook');
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    platformUrl: url,
    credentials,
    serviceKey: key || undefined,
    language,
    channelLanguage: channelLanguage as Locale,
    ticketCreators: creators as TicketCreators,
    webhookSecret,
  };
}

/** What a workspace's settings fill in when a form leaves it empty. */
export interface WorkspaceDefaults {
  serviceKey?: string | undefined;
  language?: string | undefined;
}

/** The policy rows a workspace's settings change: who may create tickets. */
export function workspaceRules(ticketCreators: TicketCreators): Partial<Record<Action, Rule>> {
  return ticketCreators === 'admin'
    ? {
        'ticket.create': {
          who: ['admin'],
          refusal:
            'create tickets: in this workspace only video platform admins can (the workspace’s confdesk settings)',
          refusalKey: 'ticket.create-admins',
        },
      }
    : {};
}
