import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const biome = resolve('node_modules/.bin/biome');

/** Writes a tree of files (path → text) under dir. */
export function writeTree(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
}

/** Runs the project's Biome lint in dir (on its own biome.json): whether it failed, and `file rule` per diagnostic. */
export function biomeLint(dir: string): Promise<{ failed: boolean; found: string[] }> {
  return new Promise((done) => {
    execFile(
      biome,
      ['lint', '--max-diagnostics=100', '--colors=off', '.'],
      { cwd: dir },
      (error, stdout, stderr) => {
        const found = [...`${stdout}${stderr}`.matchAll(/^(\S+\.ts):\d+:\d+ lint\/\w+\/(\w+)/gm)].map(
          (m) => `${m[1]} ${m[2]}`,
        );
        done({ failed: error !== null, found: found.sort() });
      },
    );
  });
}
