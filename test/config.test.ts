import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, missingSlackSettings } from '../src/config/config.js';
import { describeProxy } from '../src/platform/proxy.js';

describe('loadConfig', () => {
  it('uses the embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.platform.url).toBeUndefined();
    expect(config.platform.credentials).toBeUndefined();
    expect(config.platform.rateLimitPerMinute).toBe(10);
    expect(config.platform.timeouts).toEqual({ connectMs: 5000, headersMs: 15000, bodyMs: 30000 });
    expect(config.logLevel).toBe('info');
    expect(config.shutdownTimeoutS).toBe(10);
  });

  it('bounds SHUTDOWN_TIMEOUT_S to 1–600 seconds', () => {
    expect(loadConfig({ SHUTDOWN_TIMEOUT_S: '25' }).shutdownTimeoutS).toBe(25);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_S: '0' })).toThrow(/SHUTDOWN_TIMEOUT_S/);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_S: 'soon' })).toThrow(/SHUTDOWN_TIMEOUT_S/);
  });

  it('reads a static token or a username and password', () => {
    expect(loadConfig({ PLATFORM_URL: 'https://p.example/', PLATFORM_TOKEN: 't' }).platform).toMatchObject({
      url: 'https://p.example',
      credentials: { kind: 'token', token: 't' },
    });
    expect(
      loadConfig({ PLATFORM_URL: 'https://p.example', PLATFORM_USERNAME: 'u', PLATFORM_PASSWORD: 'p' })
        .platform.credentials,
    ).toEqual({ kind: 'password', username: 'u', password: 'p' });
  });

  it('reports every problem at once, naming each variable, without echoing secrets', () => {
    let error: unknown;
    try {
      loadConfig({
        PLATFORM_URL: 'not a url',
        PLATFORM_TOKEN: 'secret-token-value',
        PLATFORM_USERNAME: 'bob',
        PLATFORM_RATE_LIMIT: 'ten',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('PLATFORM_URL');
    expect(problems).toContain('PLATFORM_RATE_LIMIT: expected a whole number (got "ten")');
    expect(problems).toContain('LOG_LEVEL');
    expect(problems).toContain('PLATFORM_PASSWORD: PLATFORM_USERNAME and PLATFORM_PASSWORD go together');
    expect(problems).toContain(
      'PLATFORM_TOKEN: set either PLATFORM_TOKEN or PLATFORM_USERNAME/PLATFORM_PASSWORD',
    );
    expect(problems).not.toContain('secret-token-value');
    expect((error as ConfigError).problems.length).toBeGreaterThanOrEqual(5);
  });

  it('refuses a platform URL without credentials', () => {
    expect(() => loadConfig({ PLATFORM_URL: 'https://p.example' })).toThrow(
      /PLATFORM_URL: a platform URL needs/,
    );
  });

  it('selects the store: embedded under DATA_DIR by default, PostgreSQL with a postgres:// URL', () => {
    expect(loadConfig({}).store).toEqual({ databaseUrl: undefined, dataDir: './data', poolSize: 10 });
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://u:p@db:5432/confdesk',
        DATA_DIR: '/var/lib/confdesk',
        DATABASE_POOL_SIZE: '25',
      }).store,
    ).toEqual({
      databaseUrl: 'postgres://u:p@db:5432/confdesk',
      dataDir: '/var/lib/confdesk',
      poolSize: 25,
    });
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
    const error = (() => {
      try {
        loadConfig({ DATABASE_URL: 'mysql://u:secret@db/x' });
      } catch (e) {
        return e as ConfigError;
      }
      return undefined;
    })();
    expect(error?.problems.join()).toContain('DATABASE_URL: expected a postgres:// URL');
    expect(error?.problems.join()).not.toContain('secret');
  });

  it('enables platform webhooks with a secret, in X-Webhook-Secret unless told otherwise', () => {
    expect(loadConfig({}).webhook).toBeUndefined();
    expect(loadConfig({ PLATFORM_WEBHOOK_SECRET: 'abc' }).webhook).toEqual({
      secret: 'abc',
      header: 'X-Webhook-Secret',
    });
    expect(
      loadConfig({ PLATFORM_WEBHOOK_SECRET: 'abc', PLATFORM_WEBHOOK_HEADER: 'X-Hook' }).webhook?.header,
    ).toBe('X-Hook');
    expect(loadConfig({ POLL_INTERVAL: '60' }).pollIntervalS).toBe(60);
  });

  // issue 37: reactions
  it('reads the reactions’ emoji by name, colons optional, with 🎫 👀 ✅ by default; refuses what is not a name', () => {
    expect(loadConfig({}).reactions).toEqual({ create: 'ticket', take: 'eyes', done: 'white_check_mark' });
    expect(
      loadConfig({
        REACTION_CREATE_TICKET: ':Inbox_Tray:',
        REACTION_TAKE: 'raising_hand',
        REACTION_DONE: ' ',
      }).reactions,
    ).toEqual({ create: 'inbox_tray', take: 'raising_hand', done: 'white_check_mark' });
    expect(() => loadConfig({ REACTION_TAKE: 'two words' })).toThrow(
      /REACTION_TAKE: expected an emoji's name, such as ticket or :eyes: \(got "two words"\)/,
    );
  });

  // issue 39: the channels' language
  it('reads CHANNEL_LANGUAGE: en by default, fr allowed, anything else refused with the values it takes', () => {
    expect(loadConfig({}).channelLanguage).toBe('en');
    expect(loadConfig({ CHANNEL_LANGUAGE: ' fr ' }).channelLanguage).toBe('fr');
    expect(loadConfig({ CHANNEL_LANGUAGE: '' }).channelLanguage).toBe('en');
    expect(() => loadConfig({ CHANNEL_LANGUAGE: 'fr-FR' })).toThrow(
      /CHANNEL_LANGUAGE: expected en \(English, the default\) or fr \(French\)/,
    );
  });

  it('serves /metrics only when asked: METRICS_TOKEN (bearer), or METRICS=on; off by default', () => {
    expect(loadConfig({}).metrics).toBeUndefined();
    expect(loadConfig({ METRICS: 'off' }).metrics).toBeUndefined();
    expect(loadConfig({ METRICS: 'on' }).metrics).toEqual({ token: undefined });
    const token = 'a'.repeat(32);
    expect(loadConfig({ METRICS_TOKEN: token }).metrics).toEqual({ token });
    expect(loadConfig({ METRICS: 'on', METRICS_TOKEN: token }).metrics).toEqual({ token });
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ METRICS: 'yes' })).toEqual(['METRICS: expected on or off (got "yes")']);
    // A short token is refused, and never shown.
    expect(problems({ METRICS_TOKEN: 'short-secret' })).toEqual([
      'METRICS_TOKEN: expected at least 16 characters (e.g. from openssl rand -hex 32)',
    ]);
    expect(problems({ METRICS: 'off', METRICS_TOKEN: token })).toEqual([
      'METRICS: off, but METRICS_TOKEN is set: unset METRICS_TOKEN, or METRICS',
    ]);
  });

  it('reads a company proxy from HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case), none by default', () => {
    expect(loadConfig({}).proxy).toBeUndefined();
    expect(loadConfig({ https_proxy: 'http://proxy.corp:3128', no_proxy: 'localhost,.corp' }).proxy).toEqual({
      httpsProxy: 'http://proxy.corp:3128',
      httpProxy: undefined,
      noProxy: 'localhost,.corp',
    });
    expect(loadConfig({ HTTPS_PROXY: 'http://a:3128', https_proxy: 'http://b:3128' }).proxy?.httpsProxy).toBe(
      'http://a:3128',
    );
    expect(() => loadConfig({ HTTPS_PROXY: 'proxy.corp:3128' })).toThrow(/HTTPS_PROXY/);
  });

  it('shows a proxy without the password its URL may carry', () => {
    expect(describeProxy({ httpsProxy: 'http://me:s3cret@proxy.corp:3128', noProxy: 'localhost' })).toBe(
      'https via http://me:***@proxy.corp:3128; direct for localhost',
    );
  });

  it('refuses a rate limit of zero', () => {
    expect(() => loadConfig({ PLATFORM_RATE_LIMIT: '0' })).toThrow(/PLATFORM_RATE_LIMIT/);
  });
});

describe('distribution mode (issue 23)', () => {
  const base = {
    SLACK_SIGNING_SECRET: 's',
    SLACK_CLIENT_ID: '1.2',
    SLACK_CLIENT_SECRET: 'c',
    SLACK_STATE_SECRET: 'st',
    CONFDESK_ENCRYPTION_KEY: 'a'.repeat(64),
    PUBLIC_URL: 'https://confdesk.example/',
  };

  it('is on with the three OAuth variables, a key and the public URL; no bot token is then missing', () => {
    const c = loadConfig(base);
    expect(c.distribution).toEqual({
      clientId: '1.2',
      clientSecret: 'c',
      stateSecret: 'st',
      keys: ['a'.repeat(64)],
      publicUrl: 'https://confdesk.example',
      platformHosts: [],
    });
    expect(
      loadConfig({ ...base, PLATFORM_HOSTS: ' cloud.apizee.com, *.apizee.com ,' }).distribution
        ?.platformHosts,
    ).toEqual(['cloud.apizee.com', '*.apizee.com']);
    // One workspace reads it too: the host the platform's files may come from (a CDN).
    expect(
      loadConfig({
        PLATFORM_URL: 'https://p.example',
        PLATFORM_TOKEN: 't',
        PLATFORM_HOSTS: 'files.p.example',
      }).platform.hosts,
    ).toEqual(['files.p.example']);
    expect(missingSlackSettings(c)).toEqual([]);
    expect(loadConfig({}).distribution).toBeUndefined();
  });

  it('names every missing or conflicting variable at once, and never echoes the key', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    const p = problems({ SLACK_CLIENT_ID: '1.2', SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' });
    expect(p.join('\n')).toMatch(/SLACK_CLIENT_SECRET/);
    expect(p.join('\n')).toMatch(/SLACK_STATE_SECRET/);
    expect(p.join('\n')).toMatch(/CONFDESK_ENCRYPTION_KEY/);
    expect(p.join('\n')).toMatch(/PUBLIC_URL/);
    expect(p.join('\n')).toMatch(/SLACK_APP_TOKEN: distribution mode runs in HTTP mode/);
    expect(p.join('\n')).toMatch(/SLACK_BOT_TOKEN/);
    const bad = problems({ ...base, CONFDESK_ENCRYPTION_KEY: 'short-secret-key-value' });
    expect(bad.join('\n')).toMatch(/CONFDESK_ENCRYPTION_KEY: expected 32 random bytes/);
    expect(bad.join('\n')).not.toContain('short-secret-key-value');
  });
});
