// Keeps the floors of src/ by a machine: from the one table docs/floors.json it writes biome.json's
// `overrides` (a `noRestrictedImports` rule per room) and the floor block of docs/internals.md.
//   npm run floors                     write both (after editing docs/floors.json)
//   node scripts/floors.mjs --check    exit 1 if either differs from what the table gives (npm run lint);
//                                      both exit 2 on a table refused, or a folder of src/ on no floor
//   --root DIR                         work on DIR's docs/floors.json, biome.json, docs/internals.md
// Uses only Node built-ins, and the project's Biome to format biome.json.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BEGIN =
  '<!-- floors: generated from docs/floors.json by `npm run floors`; edit the table, not this block -->';
export const END = '<!-- /floors -->';

const isFolder = (room) => room.endsWith('/');
const isGlob = (room) => room.includes('*');

/** Refuses a table whose rules could not be floors: an unknown room, or an import allowed sideways or up. */
export function checkTable(table) {
  const lists = [['', table.rooms], ...Object.entries(table.inside ?? {})];
  for (const [parent, rooms] of lists) {
    const where = parent ? ` inside ${parent}` : '';
    if (parent && !table.rooms.some((r) => r.room === parent && isFolder(parent))) {
      throw new Error(`inside: ${parent} is not a folder room of the table`);
    }
    const byName = new Map();
    for (const r of rooms) {
      if (!Number.isInteger(r.floor) || r.floor < 1)
        throw new Error(`${r.room}${where}: floor must be 1 or more`);
      if (byName.has(r.room)) throw new Error(`${r.room}${where} is listed twice`);
      byName.set(r.room, r);
    }
    for (const r of rooms) {
      if (r.may === undefined) {
        if (r.why !== undefined || r.as !== undefined)
          throw new Error(`${r.room}${where}: why/as without may`);
        continue;
      }
      if (typeof r.why !== 'string' || r.why === '') throw new Error(`${r.room}${where}: may without why`);
      if (r.why.startsWith('@') && typeof table.reasons?.[r.why.slice(1)] !== 'string') {
        throw new Error(`${r.room}${where}: no reason ${r.why} in reasons`);
      }
      for (const m of [...r.may, ...Object.keys(r.as ?? {})]) {
        const to = byName.get(m);
        if (!to) throw new Error(`${r.room}${where} names ${m}, which is not a room of the same list`);
        if (isGlob(m)) throw new Error(`${r.room}${where} names ${m}: loose files are nobody's target`);
      }
      for (const m of r.may) {
        const to = byName.get(m);
        if (to.floor >= r.floor) {
          throw new Error(
            `${r.room}${where} (floor ${r.floor}) may not import ${m} (floor ${to.floor}): imports run downward only`,
          );
        }
      }
    }
  }
}

/** How `from` names `target` in an import pattern: any depth for the house's rooms, the sibling inside a room. */
function patternOf(target, from, inside) {
  if (from.as?.[target.room]) return from.as[target.room];
  const name = isFolder(target.room) ? `${target.room}**` : target.room.replace(/\.ts$/, '.js');
  if (!inside) return `**/${name}`;
  return `${isFolder(from.room) ? '../' : './'}${name}`;
}

function includesOf(room, dir, siblings) {
  if (isFolder(room.room)) return [`${dir}${room.room}**`];
  if (!isGlob(room.room)) return [`${dir}${room.room}`];
  const files = siblings.filter((s) => !isFolder(s.room) && !isGlob(s.room)).map((s) => `!${dir}${s.room}`);
  return [`${dir}${room.room}`, ...files];
}

/** The group of patterns a room's rule forbids: every room of its list it does not name in `may`. */
function groupOf(table, room, rooms, inside) {
  const group = rooms
    .filter((t) => t !== room && !isGlob(t.room) && !room.may.includes(t.room))
    .map((t) => patternOf(t, room, inside));
  const message = room.why.startsWith('@') ? table.reasons[room.why.slice(1)] : room.why;
  return group.length > 0 ? [{ group, message }] : [];
}

const override = (includes, patterns) => ({
  includes,
  linter: {
    rules: { style: { noRestrictedImports: { level: 'error', options: { patterns } } } },
  },
});

/** biome.json's `overrides`: the house's rooms first, then the rooms inside a room (a later override wins). */
export function overridesOf(table) {
  checkTable(table);
  const out = [];
  const outer = new Map();
  for (const room of table.rooms) {
    if (!room.may) continue;
    const patterns = groupOf(table, room, table.rooms, false);
    outer.set(room.room, patterns);
    if (patterns.length > 0) out.push(override(includesOf(room, table.root, table.rooms), patterns));
  }
  for (const [parent, rooms] of Object.entries(table.inside ?? {})) {
    for (const room of rooms) {
      if (!room.may) continue;
      // An override replaces the rule's options: the room keeps its parent's group and adds its own.
      const patterns = [...(outer.get(parent) ?? []), ...groupOf(table, room, rooms, true)];
      if (patterns.length > 0)
        out.push(override(includesOf(room, `${table.root}${parent}`, rooms), patterns));
    }
  }
  return out;
}

function floorLines(rooms) {
  const floors = [...new Set(rooms.map((r) => r.floor))].sort((a, b) => b - a);
  const rows = floors.map((f) => {
    const here = rooms.filter((r) => r.floor === f);
    return [
      `floor ${String(f).padStart(2)}  ${here.map((r) => r.room).join(' · ')}`,
      here
        .map((r) => r.is)
        .filter(Boolean)
        .join('; '),
    ];
  });
  const width = Math.max(...rows.map(([left]) => left.length)) + 3;
  return rows.map(([left, note]) => (note ? left.padEnd(width) + note : left).trimEnd());
}

/** docs/internals.md's block: the house's floors, then each room's own, top floor first. */
export function docsBlockOf(table) {
  checkTable(table);
  const parts = [floorLines(table.rooms).join('\n')];
  for (const [parent, rooms] of Object.entries(table.inside ?? {})) {
    parts.push(`inside ${parent}\n${floorLines(rooms).join('\n')}`);
  }
  return `${BEGIN}\n\n\`\`\`\n${parts.join('\n\n')}\n\`\`\`\n\n${END}`;
}

function blockIn(markdown, file) {
  const start = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${file}: no floor block (${BEGIN} … ${END})`);
  return { start, end: end + END.length };
}

/** The text as Biome formats it (the file's settings from root's biome.json). */
function formatJson(text, root, file) {
  return execFileSync(join(repo, 'node_modules/.bin/biome'), ['format', `--stdin-file-path=${file}`], {
    cwd: root,
    input: text,
    encoding: 'utf8',
  });
}

/** What the table and the tree disagree on: a folder or file of a listed folder on no floor, a room gone. */
export function unplacedIn(table, root) {
  const problems = [];
  for (const [parent, rooms] of [['', table.rooms], ...Object.entries(table.inside ?? {})]) {
    const at = `${table.root}${parent}`;
    const here = readdirSync(join(root, at), { withFileTypes: true })
      .filter((e) => e.isDirectory() || e.name.endsWith('.ts'))
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort();
    const named = new Set(rooms.map((r) => r.room));
    for (const name of here) {
      if (!named.has(name) && (isFolder(name) || !named.has('*.ts'))) {
        problems.push(
          `${at}${name} is on no floor of docs/floors.json: add it (docs/development.md, Floors)`,
        );
      }
    }
    for (const r of rooms) {
      if (!isGlob(r.room) && !here.includes(r.room))
        problems.push(`${at}${r.room} is in docs/floors.json, not in the tree`);
    }
  }
  return problems;
}

/** Writes (or, with check, only compares) biome.json's overrides and the docs' block; returns what is stale. */
export function run(root, { check }) {
  const tablePath = join(root, 'docs/floors.json');
  const tableText = readFileSync(tablePath, 'utf8');
  const table = JSON.parse(tableText);
  const unplaced = unplacedIn(table, root);
  if (unplaced.length > 0) throw new Error(unplaced.join('\n'));
  const stale = [];

  const biomePath = join(root, 'biome.json');
  const biome = JSON.parse(readFileSync(biomePath, 'utf8'));
  const overrides = overridesOf(table);
  if (JSON.stringify(biome.overrides) !== JSON.stringify(overrides)) {
    stale.push('biome.json');
    if (!check) {
      // A rule written by hand in the meantime is lost here: say whose, so it becomes a row of the table.
      const generated = new Set(overrides.map((o) => o.includes.join(' ')));
      const lost = (biome.overrides ?? []).map((o) => o.includes?.join(' ')).filter((i) => !generated.has(i));
      if (lost.length > 0)
        console.warn(`floors: biome.json no longer has an override for ${lost.join(', ')}`);
      writeFileSync(
        biomePath,
        formatJson(JSON.stringify({ ...biome, overrides }, null, 2), root, 'biome.json'),
      );
    }
  }

  const docsPath = join(root, 'docs/internals.md');
  const docs = readFileSync(docsPath, 'utf8');
  const { start, end } = blockIn(docs, 'docs/internals.md');
  const block = docsBlockOf(table);
  if (docs.slice(start, end) !== block) {
    stale.push('docs/internals.md');
    if (!check) writeFileSync(docsPath, docs.slice(0, start) + block + docs.slice(end));
  }
  // The table as edited, formatted as the lint wants it (not a staleness: the lint's format check says so).
  if (!check) {
    const formatted = formatJson(tableText, root, 'docs/floors.json');
    if (formatted !== tableText) writeFileSync(tablePath, formatted);
  }
  return stale;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const at = args.indexOf('--root');
  const root = at >= 0 ? resolve(args[at + 1] ?? '.') : repo;
  try {
    const stale = run(root, { check });
    if (check && stale.length > 0) {
      console.error(
        `floors: ${stale.join(' and ')} must be written from docs/floors.json: run \`npm run floors\` (never by hand).`,
      );
      process.exit(1);
    }
    if (!check) console.log(stale.length > 0 ? `floors: wrote ${stale.join(', ')}` : 'floors: up to date');
  } catch (e) {
    console.error(`floors: ${e instanceof Error ? e.message : e}`);
    process.exit(2);
  }
}
