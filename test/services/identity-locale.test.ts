import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import type { PlatformClient } from '../../src/platform/client.js';
import { IdentityService } from '../../src/services/identity.js';

/** The identity service over a Slack that answers `users.info` as Slack does, counting its `users.info` calls. */
function setup() {
  const locales: Record<string, string | undefined> = {
    UFR1: 'fr-FR',
    UCA1: 'fr-CA',
    UEN1: 'en-GB',
    UNO1: undefined,
  };
  const calls: Record<string, unknown>[] = [];
  const slack = {
    users: {
      info: async (args: Record<string, unknown>) => {
        calls.push(args);
        const id = String(args.user);
        if (!(id in locales)) return { ok: true };
        // As Slack: `locale` only when asked for.
        const locale = args.include_locale === true ? locales[id] : undefined;
        return { ok: true, user: { id, tz: 'Europe/Paris', profile: {}, ...(locale ? { locale } : {}) } };
      },
    },
  } as unknown as Pick<WebClient, 'users'>;
  return { identity: new IdentityService(slack, {} as PlatformClient), calls };
}

describe('a person’s language, kept with their profile', () => {
  it('asks users.info with include_locale and maps fr-* to fr, anything else to en', async () => {
    const { identity, calls } = setup();
    expect((await identity.profile('UFR1')).locale).toBe('fr');
    expect(await identity.locale('UCA1')).toBe('fr');
    expect(await identity.locale('UEN1')).toBe('en');
    expect(await identity.locale('UNO1')).toBe('en');
    expect(calls.every((a) => a.include_locale === true)).toBe(true);
  });

  it('costs no extra request: the language comes from the cached profile', async () => {
    const { identity, calls } = setup();
    await identity.profile('UFR1');
    expect(await identity.locale('UFR1')).toBe('fr');
    expect(await identity.locale('UFR1')).toBe('fr');
    expect(calls).toHaveLength(1);
  });

  it('is English for someone Slack does not know, rather than failing the message', async () => {
    const { identity } = setup();
    expect(await identity.locale('UGONE')).toBe('en');
  });
});
