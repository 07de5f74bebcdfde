import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BEGIN, checkTable, END, type FloorTable, overridesOf, run } from '../../scripts/floors.mjs';
import { biomeLint, writeTree } from '../helpers/biome-lint.js';

/*
 * The floors of src/ are one table (docs/floors.json); scripts/floors.mjs writes biome.json's import
 * rules and docs/internals.md's floor block from it, and refuses a table whose rules could not be
 * floors. Here: the repository is in step with its table, the rules a small table gives (by hand), the
 * tables it refuses, and Biome refusing a climbing import with the rules it wrote.
 */

/** A house of two floors, with rooms inside `app/`: doors, a screen, their parts and loose files. */
const table: FloorTable = {
  root: 'src/',
  rooms: [
    { floor: 3, room: 'main.ts', is: 'the entry' },
    { floor: 2, room: 'app/', is: 'the app', may: ['core/'], why: 'app/ stands on core/.' },
    {
      floor: 1,
      room: 'core/',
      is: 'the ground',
      may: [],
      as: { 'main.ts': '../main.js' },
      why: 'core/ is the ground.',
    },
  ],
  inside: {
    'app/': [
      { floor: 3, room: 'index.ts', is: 'registers the doors' },
      { floor: 2, room: 'doors/', is: 'the doors', may: ['parts/'], why: '@door' },
      { floor: 2, room: 'screens/', may: ['parts/'], why: '@door' },
      { floor: 2, room: '*.ts', may: ['parts/'], why: 'The loose files sit beside the doors.' },
      { floor: 1, room: 'parts/', is: 'what doors share', may: [], why: 'parts/ are the ground of app/.' },
    ],
  },
  reasons: { door: 'A door never imports another.' },
};

const rule = (includes: string[], ...patterns: { group: string[]; message: string }[]) => ({
  includes,
  linter: { rules: { style: { noRestrictedImports: { level: 'error', options: { patterns } } } } },
});
const appGroup = { group: ['**/main.js'], message: 'app/ stands on core/.' };

describe('the floors table', () => {
  it('is what biome.json and docs/internals.md hold (npm run floors writes them, npm run lint checks)', () => {
    expect(run(process.cwd(), { check: true })).toEqual([]);
  });

  it("forbids a room every room of its list it does not name, the house's at any depth, a sibling inside", () => {
    expect(overridesOf(table)).toEqual([
      rule(['src/app/**'], appGroup),
      rule(['src/core/**'], { group: ['../main.js', '**/app/**'], message: 'core/ is the ground.' }),
      // Inside a room, a rule keeps its room's group: an override replaces the rule's options.
      rule(['src/app/doors/**'], appGroup, {
        group: ['../index.js', '../screens/**'],
        message: 'A door never imports another.',
      }),
      rule(['src/app/screens/**'], appGroup, {
        group: ['../index.js', '../doors/**'],
        message: 'A door never imports another.',
      }),
      // The loose files are nobody's target, and leave out the file rooms beside them.
      rule(['src/app/*.ts', '!src/app/index.ts'], appGroup, {
        group: ['./index.js', './doors/**', './screens/**'],
        message: 'The loose files sit beside the doors.',
      }),
      rule(['src/app/parts/**'], appGroup, {
        group: ['../index.js', '../doors/**', '../screens/**'],
        message: 'parts/ are the ground of app/.',
      }),
    ]);
  });

  it('refuses an import allowed sideways or up, and a name it does not know', () => {
    const withApp = (app: object): FloorTable => ({
      ...table,
      rooms: table.rooms.map((r) => (r.room === 'app/' ? { ...r, ...app } : r)),
    });
    expect(() => checkTable(table)).not.toThrow();
    expect(() => checkTable(withApp({ may: ['main.ts'] }))).toThrow(
      'app/ (floor 2) may not import main.ts (floor 3): imports run downward only',
    );
    expect(() => checkTable(withApp({ floor: 1 }))).toThrow('app/ (floor 1) may not import core/ (floor 1)');
    expect(() => checkTable(withApp({ may: ['util/'] }))).toThrow('app/ names util/, which is not a room');
    expect(() => checkTable(withApp({ why: undefined }))).toThrow('app/: may without why');
    expect(() => checkTable({ ...table, inside: { 'core/': [] } })).not.toThrow();
    expect(() => checkTable({ ...table, inside: { 'main.ts': [] } })).toThrow('main.ts is not a folder room');
  });

  describe('on a tree of its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confdesk-floors-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const check = () => {
      try {
        execFileSync('node', ['scripts/floors.mjs', '--check', '--root', dir], {
          encoding: 'utf8',
          stdio: 'pipe',
        });
        return { code: 0, stderr: '' };
      } catch (e) {
        const { status, stderr } = e as { status: number; stderr: string };
        return { code: status, stderr };
      }
    };

    it('writes the rules and the docs block, and its check fails on a hand edit of either', () => {
      writeTree(dir, {
        'docs/floors.json': JSON.stringify(table),
        'biome.json': JSON.stringify({ linter: { enabled: true }, overrides: [] }),
        'docs/internals.md': `# Inside\n\n${BEGIN}\n${END}\n\nAfter.\n`,
      });
      expect(check().code).toBe(1);
      execFileSync('node', ['scripts/floors.mjs', '--root', dir]);
      expect(check()).toEqual({ code: 0, stderr: '' });

      const biome = JSON.parse(readFileSync(join(dir, 'biome.json'), 'utf8'));
      expect(biome.linter).toEqual({ enabled: true });
      expect(biome.overrides).toEqual(overridesOf(table));
      const docs = readFileSync(join(dir, 'docs/internals.md'), 'utf8');
      expect(docs.split('\n')).toEqual(
        expect.arrayContaining([
          'floor  3  main.ts   the entry',
          'floor  2  app/      the app',
          'floor  1  core/     the ground',
          'inside app/',
          'floor  2  doors/ · screens/ · *.ts   the doors',
          'floor  1  parts/                     what doors share',
          'After.',
        ]),
      );

      biome.overrides[0].linter.rules.style.noRestrictedImports.options.patterns[0].group = [];
      writeFileSync(join(dir, 'biome.json'), JSON.stringify(biome));
      expect(check()).toEqual({
        code: 1,
        stderr:
          'floors: biome.json must be written from docs/floors.json: run `npm run floors` (never by hand).\n',
      });
      writeFileSync(join(dir, 'docs/internals.md'), docs.replace('the entry', 'the way in'));
      expect(check().stderr).toMatch(/^floors: biome.json and docs\/internals.md must be written/);
      execFileSync('node', ['scripts/floors.mjs', '--root', dir]);
      expect(check().code).toBe(0);
    });

    it('gives rules with which Biome refuses an import that climbs or reaches a sibling, and passes the rest', async () => {
      writeTree(dir, {
        'src/main.ts': "import { open } from './app/index.js';\nexport const main = open;\n",
        'src/app/index.ts': "import { open as door } from './doors/open.js';\nexport const open = door;\n",
        'src/app/doors/open.ts':
          "import { base } from '../../core/base.js';\nimport { part } from '../parts/part.js';\nexport const open = base + part;\n",
        'src/app/doors/climb.ts': "import { show } from '../screens/show.js';\nexport const climb = show;\n",
        'src/app/screens/show.ts': 'export const show = 1;\n',
        'src/app/parts/part.ts': "import { base } from '../../core/base.js';\nexport const part = base;\n",
        'src/app/loose.ts': "import { part } from './parts/part.js';\nexport const loose = part;\n",
        'src/core/base.ts': 'export const base = 1;\n',
        'src/core/climb.ts': "import { part } from '../app/parts/part.js';\nexport const climb = part;\n",
      });
      const { failed, found } = await biomeLint(dir);
      expect(found).toEqual([
        'src/app/doors/climb.ts noRestrictedImports',
        'src/core/climb.ts noRestrictedImports',
      ]);
      expect(failed).toBe(true);
    });
  });
});
