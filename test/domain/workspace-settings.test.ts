import { describe, expect, it } from 'vitest';
import { tPlain } from '../../src/blocks/text.js';
import { decide } from '../../src/domain/policy.js';
import { checkSettingsForm, type SettingsForm, workspaceRules } from '../../src/domain/workspace-settings.js';
import type { Locale } from '../../src/i18n/locale.js';

const form = (over: Partial<SettingsForm> = {}): SettingsForm => ({
  platformUrl: 'https://cloud.apizee.com/',
  kind: 'token',
  token: 'tok',
  username: '',
  password: '',
  serviceKey: '',
  language: '',
  ticketCreators: 'account',
  webhookSecret: '',
  ...over,
});

describe('the workspace settings form', () => {
  it('accepts a complete form (the URL without its trailing slash)', () => {
    expect(checkSettingsForm(form({ serviceKey: 'a'.repeat(32), language: 'fr' }), undefined)).toEqual({
      ok: true,
      platformUrl: 'https://cloud.apizee.com',
      credentials: { kind: 'token', token: 'tok' },
      serviceKey: 'a'.repeat(32),
      language: 'fr',
      channelLanguage: 'en',
      ticketCreators: 'account',
      webhookSecret: undefined,
    });
  });

  it('takes the language of channel messages from the list (English when left empty), apart from the platform’s', () => {
    expect(checkSettingsForm(form({ channelLanguage: 'fr', language: 'en' }), undefined)).toMatchObject({
      ok: true,
      channelLanguage: 'fr',
      language: 'en',
    });
    expect(checkSettingsForm(form({ channelLanguage: '' }), undefined)).toMatchObject({
      channelLanguage: 'en',
    });
    expect(checkSettingsForm(form({ channelLanguage: 'de' }), undefined)).toMatchObject({
      ok: false,
      errors: { channelLanguage: expect.objectContaining({ key: 'settings.error.language' }) },
    });
  });

  it('takes a webhook secret of 16 characters at least, without spaces', () => {
    expect(checkSettingsForm(form({ webhookSecret: 'x'.repeat(16) }), undefined)).toMatchObject({
      ok: true,
      webhookSecret: 'x'.repeat(16),
    });
    expect(checkSettingsForm(form({ webhookSecret: 'short' }), undefined)).toMatchObject({
      ok: false,
      errors: { webhookSecret: expect.objectContaining({ key: 'settings.error.webhook' }) },
    });
    expect(checkSettingsForm(form({ webhookSecret: 'with a space in it!' }), undefined).ok).toBe(false);
  });

  it('says what to fix under each field', () => {
    const r = checkSettingsForm(
      form({ platformUrl: 'ftp://x', token: '', serviceKey: 'ABC', ticketCreators: 'everyone' }),
      undefined,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['platformUrl', 'serviceKey', 'ticketCreators', 'token']);
    const said = (locale: Locale) =>
      Object.fromEntries(Object.entries(r.errors).map(([k, p]) => [k, p && tPlain(locale, p.key, p.values)]));
    expect(said('en')).toEqual({
      platformUrl:
        'Type the platform’s address, such as https://cloud.apizee.com (no user, password, ? or # in it).',
      token: 'Paste the platform account’s API token (or choose username and password).',
      serviceKey: 'A service key is 32 lowercase letters and digits (leave it empty for none).',
      ticketCreators: 'Choose who may create tickets.',
    });
    expect(said('fr')).toMatchObject({
      token: 'Collez le jeton d’API du compte de la plateforme (ou choisissez identifiant et mot de passe).',
      ticketCreators: 'Choisissez qui peut créer des tickets.',
    });
    expect(checkSettingsForm(form({ platformUrl: 'https://u:p@x.example' }), undefined).ok).toBe(false);
    // A query or fragment would push the API's path aside (https://host/internal/#/api/v3/…).
    expect(checkSettingsForm(form({ platformUrl: 'https://x.example/internal/#' }), undefined).ok).toBe(
      false,
    );
    expect(checkSettingsForm(form({ platformUrl: 'https://x.example/a?' }), undefined).ok).toBe(false);
  });

  it('keeps the saved credentials when left empty for the same platform, not for another one', () => {
    const saved = { platformUrl: 'https://cloud.apizee.com' };
    const same = checkSettingsForm(form({ token: '' }), saved);
    expect(same).toMatchObject({ ok: true, credentials: undefined });
    expect(checkSettingsForm(form({ token: '', platformUrl: 'https://other.example' }), saved).ok).toBe(
      false,
    );
  });

  it('wants both username and password together', () => {
    const r = checkSettingsForm(form({ kind: 'password', token: '', username: 'bot' }), undefined);
    expect(r).toMatchObject({
      ok: false,
      errors: { password: expect.objectContaining({ key: 'settings.error.credentials' }) },
    });
    expect(
      checkSettingsForm(form({ kind: 'password', username: 'bot', password: ' p w ' }), undefined),
    ).toMatchObject({
      ok: true,
      credentials: { kind: 'password', username: 'bot', password: ' p w ' },
    });
  });

  it('"platform admins only" changes who may create tickets, and nothing else', () => {
    const agent = { slackId: 'U1', account: { id: '1', role: 'agent', email: 'a@x.example', groupIds: [] } };
    const admin = { slackId: 'U2', account: { id: '2', role: 'admin', email: 'b@x.example', groupIds: [] } };
    const rules = workspaceRules('admin');
    expect(decide('ticket.create', agent).allowed).toBe(true);
    expect(decide('ticket.create', agent, undefined, rules['ticket.create']).allowed).toBe(false);
    expect(decide('ticket.create', admin, undefined, rules['ticket.create']).allowed).toBe(true);
    expect(workspaceRules('account')).toEqual({});
    expect(Object.keys(rules)).toEqual(['ticket.create']);
  });
});
