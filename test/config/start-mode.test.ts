import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, startMode } from '../../src/config/config.js';

/*
 * What `npm start` runs for each shape of configuration: the built-in simulator (demo data, demo
 * accounts for every Slack member) only in the playground or when named; every half configuration
 * stops with the missing variable named, never falls back to the playground.
 */

const slack = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'sign' };
const platform = {
  PLATFORM_URL: 'https://cloud.example.com',
  PLATFORM_USERNAME: 'bot',
  PLATFORM_PASSWORD: 'pw',
};
const distribution = {
  SLACK_CLIENT_ID: '1.2',
  SLACK_CLIENT_SECRET: 'c',
  SLACK_STATE_SECRET: 'st',
  CONFDESK_ENCRYPTION_KEY: 'a'.repeat(64),
  PUBLIC_URL: 'https://confdesk.example',
};

const modeOf = (env: Record<string, string>, playground = false) =>
  startMode(loadConfig(env), { playground });
const refused = (env: Record<string, string>) => {
  const mode = modeOf(env);
  return mode.kind === 'refused' ? mode.problems : [];
};
const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (e) {
    return (e as ConfigError).problems;
  }
};
const names = (problems: string[]) => problems.map((p) => p.split(':')[0]);

describe('the built-in simulator runs only in the playground or when named', () => {
  it('without any Slack credential: the playground (the README’s `npm start` on a fresh clone)', () => {
    expect(modeOf({})).toEqual({ kind: 'playground', asked: false });
    // Platform settings alone do not make a Slack start: still the playground, against that platform.
    expect(modeOf(platform)).toEqual({ kind: 'playground', asked: false });
  });

  it('with Slack credentials and no PLATFORM_URL: refused, naming PLATFORM_URL and the simulator’s name', () => {
    const problems = refused(slack);
    expect(names(problems)).toEqual(['PLATFORM_URL']);
    expect(problems[0]).toContain('PLATFORM_URL=simulator');
    expect(problems[0]).toContain('demo');
    // Credentials without the URL are no platform either (they were silently ignored before).
    expect(names(refused({ ...slack, PLATFORM_TOKEN: 't' }))).toEqual(['PLATFORM_URL']);
    // In Socket Mode too.
    expect(names(refused({ ...slack, SLACK_APP_TOKEN: 'xapp-1' }))).toEqual(['PLATFORM_URL']);
  });

  it('PLATFORM_URL=simulator asks for it by name: a Slack start with the simulator, no credentials needed', () => {
    expect(modeOf({ ...slack, PLATFORM_URL: 'simulator' })).toEqual({ kind: 'slack' });
    const config = loadConfig({ ...slack, PLATFORM_URL: ' simulator ' });
    expect(config.platform).toMatchObject({ url: undefined, simulator: true, credentials: undefined });
    expect(loadConfig(slack).platform.simulator).toBe(false);
    expect(loadConfig({ ...slack, ...platform }).platform).toMatchObject({
      url: 'https://cloud.example.com',
      simulator: false,
    });
    expect(modeOf({ ...slack, ...platform })).toEqual({ kind: 'slack' });
  });

  it('refuses another word where a URL goes, saying the two forms', () => {
    const [problem] = problemsOf({ ...slack, PLATFORM_URL: 'simulated', PLATFORM_TOKEN: 't' });
    expect(problem).toMatch(
      /^PLATFORM_URL: expected an http\(s\) URL .*, or simulator for the built-in simulator/,
    );
  });

  it('`--playground` runs the playground whatever the Slack settings say (it replaces them)', () => {
    expect(modeOf({ SLACK_BOT_TOKEN: 'xoxb-1' }, true)).toEqual({ kind: 'playground', asked: true });
    expect(modeOf(slack, true)).toEqual({ kind: 'playground', asked: true });
  });
});

describe('half configurations name what is missing', () => {
  it('a bot token without SLACK_SIGNING_SECRET is a refused start, not the playground', () => {
    const problems = refused({ SLACK_BOT_TOKEN: 'xoxb-1', ...platform });
    expect(names(problems)).toEqual(['SLACK_SIGNING_SECRET']);
    expect(problems[0]).toContain('not set');
    expect(problems[0]).toContain('Basic Information → App Credentials');
    // Both missing at once: both named.
    expect(names(refused({ SLACK_BOT_TOKEN: 'xoxb-1' }))).toEqual(['SLACK_SIGNING_SECRET', 'PLATFORM_URL']);
  });

  it('a signing secret or an app token alone names the bot token', () => {
    expect(names(refused({ SLACK_SIGNING_SECRET: 's', ...platform }))).toEqual(['SLACK_BOT_TOKEN']);
    expect(names(refused({ SLACK_APP_TOKEN: 'xapp-1', ...platform }))).toEqual([
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
    ]);
  });

  it('distribution mode without SLACK_SIGNING_SECRET fails the configuration check, naming it', () => {
    const problems = problemsOf(distribution);
    expect(names(problems)).toEqual(['SLACK_SIGNING_SECRET']);
    expect(problems[0]).toContain('distribution mode');
    expect(() => loadConfig(distribution)).toThrow(ConfigError);
    expect(modeOf({ ...distribution, SLACK_SIGNING_SECRET: 's' })).toEqual({ kind: 'distribution' });
  });
});

describe('HOST', () => {
  it('is unset by default (every interface, as before) and takes an address or a host name', () => {
    expect(loadConfig({}).slack.host).toBeUndefined();
    for (const host of ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'bot.internal'])
      expect(loadConfig({ HOST: host }).slack.host).toBe(host);
  });

  it('refuses what is not one, showing the value', () => {
    expect(problemsOf({ HOST: 'http://0.0.0.0' })).toEqual([
      'HOST: expected an address to listen on, such as 127.0.0.1, 0.0.0.0, :: or localhost (got "http://0.0.0.0")',
    ]);
  });
});
