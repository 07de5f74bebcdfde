import { join, resolve } from 'node:path';
import { loadToolConfig, runTool } from '../config/config.js';
import {
  BackupRefused,
  backupEmbedded,
  fileSystemRefusal,
  manifestName,
  operatorPath,
  postgresGuidance,
} from './backup.js';
import { storeMissing } from './store.js';

/*
 * `npm run backup -- <folder>`: an online backup of the embedded store, beside the running bot (same
 * .env and DATA_DIR as `npm start`), into a new folder laid out as DATA_DIR is (every workspace's
 * store in distribution mode). `npm run restore -- <folder>` puts it back. On PostgreSQL it says what
 * to run instead (pg_dump) and copies nothing. It never creates a store: with none where DATA_DIR
 * says, it says so (exit 1) and makes no folder.
 */

const usage = [
  'Usage: npm run backup -- <folder>   (a new or empty folder; the store is copied while the bot runs)',
  '       node dist/store/backup-cli.js <folder>',
].join('\n');

async function main(args: string[]): Promise<number> {
  const [target] = args;
  if (args.length !== 1 || !target || target.startsWith('-')) {
    console.error(usage);
    return 2;
  }
  const config = loadToolConfig();
  if (!config) return 1;
  if (config.store.databaseUrl) {
    console.error(
      postgresGuidance('backup', { schema: config.store.schema, distribution: Boolean(config.distribution) }),
    );
    return 1;
  }
  const dataDir = config.store.dataDir;
  // The store is the bot's: a tool that made one where it looked would back up an empty store.
  const missing = await storeMissing({ dataDir });
  if (missing) {
    console.error(`Nothing to back up: ${missing}`);
    return 1;
  }
  try {
    const report = await backupEmbedded(dataDir, operatorPath(target));
    const { folder, manifest } = report;
    console.log(`Backed up ${resolve(dataDir)} into ${folder} (${manifest.takenAt}):`);
    for (const s of manifest.stores)
      console.log(`  ${join(folder, s.file)}${s.team ? ` (workspace ${s.team})` : ''}: ${s.bytes} bytes`);
    for (const note of report.notes) console.log(`  note: ${note}`);
    if (manifest.stores.some((s) => s.team))
      console.log(
        'The workspaces’ tokens and platform credentials in it are sealed with CONFDESK_ENCRYPTION_KEY, which it does not hold: keep the key, apart from the backup.',
      );
    console.log(
      `Restore: stop the bot, then npm run restore -- ${folder} (the folder as it is: ${manifestName} lists and checks its files).`,
    );
    return 0;
  } catch (error) {
    const refused = error instanceof BackupRefused ? error : fileSystemRefusal(error);
    if (!refused) throw error;
    console.error(`Not backed up: ${refused.message}`);
    return 1;
  }
}

runTool(main);
