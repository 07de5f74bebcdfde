import SQLite from 'better-sqlite3';

/*
 * A writer beside the bot, for the backup tests (run as a child process: `tsx store-writer.ts <file>`):
 * in the embedded store `<file>`, transaction n writes two settings, `n-a` then, a moment later with
 * the transaction still open, `n-b`. A copy of the store taken at any moment holds both or neither.
 * It prints `committed n` after each commit, and stops on SIGTERM.
 */

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: store-writer.ts <confdesk.sqlite>');
const db = new SQLite(file, { fileMustExist: true, timeout: 5_000 });
db.pragma('journal_mode = WAL');
const put = db.prepare("insert into settings (scope, key, value) values ('backup-test', ?, ?)");
let stop = false;
process.on('SIGTERM', () => {
  stop = true;
});
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
for (let n = 1; !stop; n++) {
  db.exec('begin immediate');
  put.run(`${n}-a`, String(n));
  await pause(3);
  put.run(`${n}-b`, String(n));
  db.exec('commit');
  process.stdout.write(`committed ${n}\n`);
  await pause(2);
}
db.close();
