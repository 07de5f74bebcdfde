// Installs the locked dependencies when they are missing or older than package-lock.json, so that
// `npm start` and `npm test` are the only two commands a fresh clone needs; with `--build`, then
// builds dist/ (what `npm start` runs). In a production tree (a built dist/ and `npm ci --omit=dev`,
// no src/) it does neither: `npm start` there starts dist/ as it is. Uses only Node built-ins.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const lock = 'package-lock.json';
const production = !existsSync('src') && existsSync('dist');
const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs;
if (stale && !production) {
  console.log('confdesk: installing dependencies (npm ci)…');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
if (process.argv.includes('--build') && !production) execSync('npm run build --silent', { stdio: 'inherit' });
