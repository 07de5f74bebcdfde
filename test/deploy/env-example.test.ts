import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { envSchema, loadConfig, startMode } from '../../src/config/config.js';

/*
 * .env.example is copied as it is: as `.env` (read by Node's loader in `npm start` and the tools), as
 * the systemd unit's EnvironmentFile, as `docker run --env-file`. Every line of it is a comment, so a
 * copy changes nothing: no DATA_DIR taking the store out of the deployment's volume, no empty value
 * hiding the environment's. And every variable the configuration reads is in it, with its meaning.
 */

const text = readFileSync('.env.example', 'utf8');

describe('.env.example', () => {
  it('has no active line: each one is a comment (#) or blank, for every reader of it', () => {
    const lines = text.split('\n');
    expect(lines.filter((l) => l.trim() !== '' && !l.startsWith('#'))).toEqual([]);
    // Node's own parser (process.loadEnvFile's) finds nothing in it; one line of the old file is found.
    expect(parseEnv(text)).toEqual({});
    expect(parseEnv(`${text}\nDATA_DIR=./data\n`)).toEqual({ DATA_DIR: './data' });
  });

  it('documents every variable the configuration reads, each as a line to uncomment', () => {
    const names = Object.keys(envSchema.shape);
    const missing = names.filter((name) =>
      name === name.toUpperCase()
        ? !new RegExp(`^# ${name}=`, 'm').test(text)
        : // The lower-case proxy spellings are named beside the upper-case ones.
          !text.includes(name),
    );
    expect(missing).toEqual([]);
  });

  it('loaded by Node as npm start loads .env, leaves the environment as it was', () => {
    const before = { ...process.env };
    try {
      process.loadEnvFile('.env.example');
      expect(process.env).toEqual(before);
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
      Object.assign(process.env, before);
    }
  });

  it.each([
    ['a checkout (npm start: the playground)', {}],
    [
      'the systemd unit (its Environment= lines)',
      {
        DATA_DIR: '/var/lib/confdesk',
        NODE_ENV: 'production',
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_SIGNING_SECRET: 's',
        PLATFORM_URL: 'simulator',
      },
    ],
    ['the Docker image (its ENV)', { NODE_ENV: 'production', DATA_DIR: '/data', PORT: '3000' }],
  ])(
    'copied in as it is, gives %s the configuration it has without it',
    (_, base: Record<string, string>) => {
      const values = parseEnv(text);
      // Node's loader: the environment wins. systemd's EnvironmentFile and --env-file: the file wins.
      for (const env of [
        { ...values, ...base },
        { ...base, ...values },
      ]) {
        expect(loadConfig(env)).toEqual(loadConfig(base));
        expect(startMode(loadConfig(env), { playground: false })).toEqual(
          startMode(loadConfig(base), { playground: false }),
        );
      }
    },
  );
});
