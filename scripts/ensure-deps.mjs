// Installs the locked dependencies when they are missing or older than package-lock.json, so that
// `npm start` and `npm test` are the only two commands a fresh clone needs. Uses only Node built-ins.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const lock = 'package-lock.json';
const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs;
if (stale) {
  console.log('confdesk: installing dependencies (npm ci)…');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
