import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ids } from '../../src/blocks/ids.js';

interface Manifest {
  display_information: { name: string; description: string };
  features: {
    slash_commands: { command: string; description: string; usage_hint: string; should_escape: boolean }[];
    shortcuts: { name: string; type: string; callback_id: string }[];
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    socket_mode_enabled: boolean;
    interactivity: { is_enabled: boolean };
    event_subscriptions: { bot_events: string[] };
  };
}

const manifest = parse(readFileSync('manifest.yml', 'utf8')) as Manifest;

describe('manifest.yml', () => {
  it('fits Slack’s limits for names and descriptions', () => {
    expect(manifest.display_information.name.length).toBeLessThanOrEqual(35);
    expect(manifest.display_information.description.length).toBeLessThanOrEqual(140);
    for (const s of manifest.features.shortcuts) expect(s.name.length).toBeLessThanOrEqual(24);
    // Only shortcuts the bot answers.
    expect(manifest.features.shortcuts.map((s) => s.callback_id)).toEqual([
      ids.shortcuts.conferenceNew,
      ids.shortcuts.ticketFromMessage,
    ]);
  });

  it('declares the bot’s slash commands with usage hints and escaping on', () => {
    const commands = manifest.features.slash_commands;
    expect(commands.map((c) => c.command).sort()).toEqual(Object.values(ids.commands).sort());
    for (const c of commands) {
      expect(c.should_escape).toBe(true);
      expect(c.usage_hint.length).toBeGreaterThan(5);
    }
  });

  it('enables Socket Mode and interactivity, subscribes to lifecycle events, asks for no admin scope', () => {
    expect(manifest.settings.socket_mode_enabled).toBe(true);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.settings.event_subscriptions.bot_events).toEqual(
      expect.arrayContaining(['app_home_opened', 'app_uninstalled', 'tokens_revoked']),
    );
    expect(manifest.oauth_config.scopes.bot).toContain('commands');
    expect(manifest.oauth_config.scopes.bot.filter((s) => /admin|users:write/.test(s))).toEqual([]);
    // Reactions act on tickets in the channels that turn them on (issue 37).
    expect(manifest.oauth_config.scopes.bot).toContain('reactions:read');
    expect(manifest.settings.event_subscriptions.bot_events).toContain('reaction_added');
    expect(manifest.settings.event_subscriptions.bot_events).not.toContain('reaction_removed');
    // History only of the channels the bot posts in, for the rare check after a lost answer (and a
    // reacted message's text, read on its Create ticket click).
    expect(manifest.oauth_config.scopes.bot.filter((s) => s.endsWith(':history')).sort()).toEqual([
      'channels:history',
      'groups:history',
      'im:history',
    ]);
  });
});
