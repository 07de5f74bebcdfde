import type { SlackDouble } from '../../src/dev/slack-double.js';

/*
 * Distribution mode's gestures as Slack makes them (issue 23): "Add to Slack" through to the redirect,
 * and a submission of a workspace's settings modal.
 */

/** A workspace of the tests: its team, its name and the admin who installs it. */
export interface TestWorkspace {
  team: string;
  name: string;
  admin: string;
}

/**
 * The install page, Slack's Allow (the double hands out a code) and the redirect with the page's state
 * cookie; answers the authorize URL the page linked to and the redirect's answer.
 */
export async function installThrough(url: string, slack: SlackDouble, ws: TestWorkspace) {
  const page = await fetch(`${url}/slack/install`);
  const html = await page.text();
  const authorize = new URL(/href="([^"]+)"/.exec(html)?.[1]?.replace(/&#38;/g, '&') ?? '');
  const state = authorize.searchParams.get('state') ?? '';
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const code = slack.grantInstall({ teamId: ws.team, teamName: ws.name, user: ws.admin });
  const done = await fetch(`${url}/slack/oauth_redirect?code=${code}&state=${encodeURIComponent(state)}`, {
    headers: { cookie },
  });
  return { pageStatus: page.status, authorize, status: done.status, html: await done.text() };
}

/** The fields of the settings modal a test fills (the others are left empty). */
export interface SettingsFields {
  url?: string;
  kind?: 'token' | 'password';
  token?: string;
  serviceKey?: string;
  language?: string;
  /** The language of channel messages (`en`, `fr`); unset: left empty (English). */
  channelLanguage?: string;
  creators?: string;
  webhook?: string;
}

/** A `view_submission` of the settings modal `viewId`, by `user` of `team`. */
export function settingsSubmission(team: string, user: string, viewId: string, fields: SettingsFields) {
  const text = (v: string | undefined) => ({ type: 'plain_text_input', value: v ?? null });
  const pick = (v: string | undefined) => ({
    type: 'static_select',
    selected_option: v ? { value: v } : null,
  });
  return {
    type: 'view_submission',
    team: { id: team, domain: 'x' },
    user: { id: user, team_id: team },
    api_app_id: 'ADOUBLE01',
    trigger_id: `trigger-${Math.random()}`,
    view: {
      id: viewId,
      callback_id: 'workspace_settings',
      private_metadata: '',
      hash: 'h',
      type: 'modal',
      state: {
        values: {
          platform_url: { value: text(fields.url) },
          credentials_kind: { value: pick(fields.kind ?? 'token') },
          platform_token: { value: text(fields.token) },
          platform_username: { value: text(undefined) },
          platform_password: { value: text(undefined) },
          service_key: { value: text(fields.serviceKey) },
          language: { value: pick(fields.language) },
          channel_language: { value: pick(fields.channelLanguage) },
          ticket_creators: { value: pick(fields.creators ?? 'account') },
          webhook_secret: { value: text(fields.webhook) },
        },
      },
    },
  };
}
