import { existsSync } from 'node:fs';
import { ConfigError, loadConfig } from '../config/config.js';
import { type DeadLetter, openStore } from './store.js';

/*
 * The operator's look into the outbox, beside a running bot (same .env and store as `npm start`):
 *   npm run outbox -- dead [limit]   the messages Slack refused for good, latest first
 * It only reads; it leaves the bot's leases alone.
 */

const usage = 'Usage: npm run outbox -- dead [limit]   (the messages Slack refused for good, latest first)';

/** Control characters could rewrite the operator's terminal: ids come from the platform. */
const control = (n: number) => n < 0x20 || (n >= 0x7f && n < 0xa0);
const printable = (s: string) => [...s].map((c) => (control(c.codePointAt(0) ?? 0) ? '?' : c)).join('');

function table(list: DeadLetter[]): string {
  const rows = list.map((d) =>
    [d.settledAt?.toISOString() ?? '-', d.channel, d.ticketId, d.eventId, d.reason ?? '-'].map(printable),
  );
  return [['set aside (UTC)', 'channel', 'ticket', 'event', 'reason'], ...rows]
    .map((r) => r.join('\t'))
    .join('\n');
}

async function main(args: string[]): Promise<number> {
  const [command, limitText] = args;
  const limit = limitText === undefined ? 100 : Number(limitText);
  if (command !== 'dead' || !Number.isInteger(limit) || limit < 1) {
    console.error(usage);
    return 2;
  }
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${error.message}\nSee .env.example for every variable and its meaning.`);
    return 1;
  }
  const store = await openStore({
    databaseUrl: config.store.databaseUrl,
    dataDir: config.store.dataDir,
    ...(config.store.schema ? { schema: config.store.schema } : {}),
    keepLeases: true,
  });
  try {
    const dead = await store.deadLetters(limit);
    console.log(
      dead.length
        ? table(dead)
        : 'No dead letters: Slack has refused no ticket message for good (the bot logs each one at warn).',
    );
    return 0;
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
