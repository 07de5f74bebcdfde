import { resolve } from 'node:path';
import { loadToolConfig, runTool } from '../config/config.js';
import {
  type DeadLetter,
  installedTeamsOf,
  openStore,
  type StoreOptions,
  storeMissing,
  workspaceStoreOptions,
} from './store.js';

/*
 * The operator's look into the outbox, beside a running bot (same .env and store as `npm start`):
 *   npm run outbox -- dead [limit]          the messages Slack refused for good, latest first
 *   npm run outbox -- requeue all|<channel>  once the cause is fixed: another try for them
 * In distribution mode each workspace has its own outbox: `--workspace <team id>` first names it.
 * It leaves the bot's leases alone.
 */

const usage = [
  'Usage: npm run outbox -- dead [limit]            (the messages Slack refused for good, latest first)',
  '       npm run outbox -- requeue all|<channel>   (another try for them, once the cause is fixed)',
  'Distribution mode: npm run outbox -- --workspace <team id> dead|requeue …',
].join('\n');

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

async function main(all: string[]): Promise<number> {
  const named = all[0] === '--workspace' ? all[1] : undefined;
  const args = named === undefined ? all : all.slice(2);
  const [command, arg] = args;
  const limit = command === 'dead' && arg !== undefined ? Number(arg) : 100;
  const known =
    (command === 'dead' && Number.isInteger(limit) && limit >= 1) ||
    (command === 'requeue' && arg !== undefined && /^(all|[A-Z0-9]{2,30})$/.test(arg));
  if (!known || (all[0] === '--workspace' && !/^[A-Z0-9]{2,32}$/.test(named ?? ''))) {
    console.error(usage);
    return 2;
  }
  const config = loadToolConfig();
  if (!config) return 1;
  const base: StoreOptions = {
    databaseUrl: config.store.databaseUrl,
    dataDir: config.store.dataDir,
    ...(config.store.schema ? { schema: config.store.schema } : {}),
    keepLeases: true,
  };
  if (named !== undefined && !config.distribution) {
    console.error('--workspace is for distribution mode (SLACK_CLIENT_ID…); this bot serves one workspace.');
    return 2;
  }
  // The store is the bot's: a tool that created one where it looked would report an empty outbox.
  const missing = await storeMissing(base);
  if (missing) {
    console.error(`No outbox here: ${missing}`);
    return 1;
  }
  if (config.distribution && named === undefined) {
    const teams = (await installedTeamsOf(base)) ?? [];
    console.error(
      `Distribution mode: each workspace has its own outbox. Name one: npm run outbox -- --workspace <team id> ${args.join(' ')}\nInstalled: ${teams.join(', ') || 'none'}`,
    );
    return 2;
  }
  const options = named ? workspaceStoreOptions(base, named) : base;
  if (named && (await storeMissing(options))) {
    const teams = (await installedTeamsOf(base)) ?? [];
    console.error(
      `--workspace ${named}: no workspace ${named} here (its store would be at ${options.databaseUrl ? `schema ${options.schema}` : resolve(options.dataDir ?? '')}): check the team id. Installed: ${teams.join(', ') || 'none'}`,
    );
    return 1;
  }
  const store = await openStore(options);
  try {
    if (command === 'requeue') {
      const n = await store.requeueDead(arg === 'all' ? undefined : arg);
      console.log(
        n
          ? `${n} dead letter(s) requeued: the running bot delivers them now, each once.`
          : 'No dead letter to requeue.',
      );
      return 0;
    }
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

runTool(main);
