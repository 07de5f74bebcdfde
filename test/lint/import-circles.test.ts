import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { biomeLint, writeTree } from '../helpers/biome-lint.js';

/*
 * `npm run lint` fails on any import circle: biome.json's linter turns on Biome's noImportCycles with
 * `ignoreTypes: false`, since the two circles that once got in (platform/lane.ts ↔ rate-budget.ts,
 * sim/hostile.ts ↔ sim/http.ts) were type-only on one side, and Biome's default skips `import type`
 * (with it, not one file of such a circle is reported). Proven here on a tree of its own, linted with
 * the repository's linter settings.
 */

const { linter } = JSON.parse(readFileSync('biome.json', 'utf8')) as { linter: unknown };

/** Lints the files with the repository's linter settings. */
async function lint(files: Record<string, string>): Promise<{ failed: boolean; found: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'confdesk-circles-'));
  try {
    writeFileSync(join(dir, 'biome.json'), JSON.stringify({ linter }));
    writeTree(dir, files);
    return await biomeLint(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the lint and import circles', () => {
  it('refuses a circle whether its imports are values or types only, and lets a chain pass', async () => {
    const { failed, found } = await lint({
      // The shape of the two that got in: a type taken back from the file that uses the importer's values.
      'src/sim/http.ts':
        "import { hostile } from './hostile.js';\nexport type Reply = { status: number };\nexport const serve = () => hostile();\n",
      'src/sim/hostile.ts':
        "import type { Reply } from './http.js';\nexport const hostile = (): Reply => ({ status: 500 });\n",
      // Types only on both sides.
      'src/types/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
      'src/types/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
      // Values, through three files and a re-export.
      'src/values/a.ts': "export { b } from './b.js';\nexport const a = 1;\n",
      'src/values/b.ts': "import { c } from './c.js';\nexport const b = () => c;\n",
      'src/values/c.ts': "import { a } from './a.js';\nexport const c = () => a;\n",
      // A chain is no circle.
      'src/chain/top.ts': "import { mid } from './mid.js';\nexport const top = () => mid;\n",
      'src/chain/mid.ts': "import type { Ground } from './ground.js';\nexport const mid: Ground = 1;\n",
      'src/chain/ground.ts': 'export type Ground = number;\n',
    });
    expect(found).toEqual(
      [
        'src/sim/hostile.ts',
        'src/sim/http.ts',
        'src/types/a.ts',
        'src/types/b.ts',
        'src/values/a.ts',
        'src/values/b.ts',
        'src/values/c.ts',
      ].map((f) => `${f} noImportCycles`),
    );
    expect(failed).toBe(true);
  });

  it('passes the same tree without the circles', async () => {
    const { failed, found } = await lint({
      'src/sim/reply.ts': 'export type Reply = { status: number };\n',
      'src/sim/hostile.ts':
        "import type { Reply } from './reply.js';\nexport const hostile = (): Reply => ({ status: 500 });\n",
      'src/sim/http.ts': "import { hostile } from './hostile.js';\nexport const serve = () => hostile();\n",
    });
    expect(found).toEqual([]);
    expect(failed).toBe(false);
  });
});
