import { loadToolConfig, runTool } from '../config/config.js';
import {
  BackupRefused,
  fileSystemRefusal,
  operatorPath,
  postgresGuidance,
  restoreEmbedded,
} from './backup.js';

/*
 * `npm run restore -- <folder>`: puts a backup made by `npm run backup` back into DATA_DIR (same .env
 * and environment as `npm start`), the bot stopped: it refuses while a process has the store open.
 * The store it replaces is moved aside into DATA_DIR/replaced-<time>/, not deleted. The bot migrates
 * the restored store at its next start. On PostgreSQL it says what to run instead (pg_restore).
 */

const usage = [
  'Usage: npm run restore -- <folder>   (a folder made by npm run backup; stop the bot first)',
  '       node dist/store/restore-cli.js <folder>',
].join('\n');

async function main(args: string[]): Promise<number> {
  const [backup] = args;
  if (args.length !== 1 || !backup || backup.startsWith('-')) {
    console.error(usage);
    return 2;
  }
  const config = loadToolConfig();
  if (!config) return 1;
  if (config.store.databaseUrl) {
    console.error(
      postgresGuidance('restore', {
        schema: config.store.schema,
        distribution: Boolean(config.distribution),
      }),
    );
    return 1;
  }
  try {
    const report = restoreEmbedded(operatorPath(backup), config.store.dataDir);
    const { manifest } = report;
    console.log(
      `Restored the backup of ${manifest.takenAt} into ${report.dataDir}: ${manifest.stores.length} store(s)${manifest.stores.some((s) => s.team) ? `, workspaces ${manifest.stores.flatMap((s) => s.team ?? []).join(', ')}` : ''}.`,
    );
    if (report.replaced)
      console.log(
        `The store it replaced is in ${report.replaced}: delete that folder once the bot runs well.`,
      );
    console.log(
      report.pending.length
        ? `Start the bot: it applies the migrations the backup is missing (${report.pending.join(', ')}).`
        : 'Start the bot.',
    );
    return 0;
  } catch (error) {
    const refused = error instanceof BackupRefused ? error : fileSystemRefusal(error);
    if (!refused) throw error;
    console.error(`Not restored: ${refused.message}`);
    return 1;
  }
}

runTool(main);
