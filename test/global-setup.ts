import { execFileSync } from 'node:child_process';

/** Builds dist/ once for the tests that run the bot as `npm start` does (a child process). */
export default function setup(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
