import { spawnSync } from 'node:child_process';
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
    /** Runs the generator on dir's table: its exit code and what it said on stderr. */
    const floors = (...args: string[]) => {
      const { status, stderr } = spawnSync('node', ['scripts/floors.mjs', ...args, '--root', dir], {
        encoding: 'utf8',
      });
      return { code: status, stderr };
    };
    writeTree(dir, {
      'docs/floors.json': JSON.stringify(table),
      'biome.json': JSON.stringify({ linter: { enabled: true }, overrides: [] }),
      'docs/internals.md': `# Inside\n\n${BEGIN}\n${END}\n\nAfter.\n`,
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

    it('writes the rules and the docs block, and its check fails on a hand edit of either', () => {
      expect(floors('--check').code).toBe(1);
      expect(floors()).toEqual({ code: 0, stderr: '' });
      expect(floors('--check')).toEqual({ code: 0, stderr: '' });
      // The table as edited (one line here) comes out formatted as the lint wants it, the same table.
      const tableText = readFileSync(join(dir, 'docs/floors.json'), 'utf8');
      expect(tableText).toMatch(/^\{\n\s+"root": "src\/",\n\s+"rooms": \[\n/);
      expect(JSON.parse(tableText)).toEqual(table);

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

      biome.overrides.push(rule(['src/hand/**'], { group: ['**/app/**'], message: 'by hand' }));
      writeFileSync(join(dir, 'biome.json'), JSON.stringify(biome));
      expect(floors('--check')).toEqual({
        code: 1,
        stderr:
          'floors: biome.json must be written from docs/floors.json: run `npm run floors` (never by hand).\n',
      });
      writeFileSync(join(dir, 'docs/internals.md'), docs.replace('the entry', 'the way in'));
      expect(floors('--check').stderr).toMatch(/^floors: biome.json and docs\/internals.md must be written/);
      // Rewriting tells whose rule written by hand it drops, so that it becomes a row of the table.
      expect(floors()).toEqual({
        code: 0,
        stderr: 'floors: biome.json no longer has an override for src/hand/**\n',
      });
      expect(floors('--check').code).toBe(0);
      expect(readFileSync(join(dir, 'docs/internals.md'), 'utf8')).toBe(docs);
    });

    it('refuses a folder of the tree on no floor, and a room the tree no longer has', () => {
      writeTree(dir, {
        'src/extra/x.ts': 'export const x = 1;\n',
        'src/app/more/y.ts': 'export const y = 1;\n',
      });
      rmSync(join(dir, 'src/app/screens'), { recursive: true });
      expect(floors('--check')).toEqual({
        code: 2,
        stderr: [
          'floors: src/extra/ is on no floor of docs/floors.json: add it (docs/development.md, Floors)',
          'src/app/more/ is on no floor of docs/floors.json: add it (docs/development.md, Floors)',
          'src/app/screens/ is in docs/floors.json, not in the tree',
          '',
        ].join('\n'),
      });
      rmSync(join(dir, 'src/extra'), { recursive: true });
      rmSync(join(dir, 'src/app/more'), { recursive: true });
      writeTree(dir, { 'src/app/screens/show.ts': 'export const show = 1;\n' });
      expect(floors('--check').code).toBe(0);
    });

    it('gives rules with which Biome refuses an import that climbs or reaches a sibling, and passes the rest', async () => {
      const { failed, found } = await biomeLint(dir);
      expect(found).toEqual([
        'src/app/doors/climb.ts noRestrictedImports',
        'src/core/climb.ts noRestrictedImports',
      ]);
      expect(failed).toBe(true);
    });
  });
});
