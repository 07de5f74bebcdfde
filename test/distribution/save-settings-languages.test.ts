import { describe, expect, it } from 'vitest';
import { type SettingsOptions, setupDepsFor } from '../../src/distribution/save-settings.js';
import type { CheckedSettings } from '../../src/slack/setup/index.js';

/** Why settings were not saved, and why a set-up workspace does not run, in the admin's language. */
const team = 'T1';
const options = (failures = new Map<string, { problem: string; retryAt: number }>()) =>
  ({
    config: {},
    registry: {
      merge: async () => ({ platformUrl: 'http://video.example', credentials: { kind: 'token' } }),
    },
    tenants: { failures },
    retryMaxMs: 300_000,
    logger: { child: () => ({}) },
  }) as unknown as SettingsOptions;
const checked = { ok: true, platformUrl: 'http://video.example' } as unknown as CheckedSettings;

describe('the settings’ outcome in the admin’s language', () => {
  it('a refused address: English as before, French for a French admin', async () => {
    const deps = setupDepsFor(options())(team, 'Acme');
    expect(await deps.save(checked, 'U1', 'en')).toMatchObject({
      ok: false,
      problem: { text: 'Not saved: Platform address: use an https:// address.' },
    });
    const fr = await deps.save(checked, 'U1', 'fr');
    expect(fr.ok || fr.problem.text).toBe(
      'Non enregistré\u202f: adresse de la plateforme\u202f: use an https:// address.',
    );
  });

  it('a workspace whose start failed says so in the person’s language', () => {
    const failures = new Map([[team, { problem: 'its store could not open', retryAt: Date.now() + 30_000 }]]);
    const deps = setupDepsFor(options(failures))(team, 'Acme');
    expect(deps.notStarted?.('en')?.text).toMatch(
      /^confdesk is set up in this workspace but could not start: its store could not open\. It tries again by itself \(next in \d+ s\); please try again later\.$/,
    );
    expect(deps.notStarted?.('fr')?.text).toMatch(
      /^confdesk est configuré dans cet espace de travail mais n’a pas pu démarrer\u202f: its store could not open\. Il réessaie de lui-même \(prochain essai dans \d+ s\)/,
    );
  });
});
