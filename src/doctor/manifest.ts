import { readFileSync } from 'node:fs';

/*
 * What the doctor compares with the installed app (the bot scopes and slash commands of
 * manifest.yml), and the shortcuts the playground offers.
 * Read with a few lines rather than a YAML library, so that `npm run doctor` needs only the
 * production dependencies (the test checks it against a real YAML parser).
 */

export interface ManifestFacts {
  botScopes: string[];
  commands: string[];
  shortcuts: ManifestShortcut[];
}

/** One of `features.shortcuts`. */
export interface ManifestShortcut {
  type: 'global' | 'message';
  callback_id: string;
  name: string;
  description?: string;
}

const indentOf = (line: string) => line.length - line.trimStart().length;
const bare = (line: string) => line.replace(/\s+#.*$/, '').trim();

/** The items of the block list under the key found by `isKey` (`- value` lines, comments dropped). */
function listUnder(lines: string[], isKey: (line: string, i: number) => boolean): string[] {
  const start = lines.findIndex(isKey);
  if (start < 0) return [];
  const indent = indentOf(lines[start] as string);
  const items: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!bare(line)) continue;
    if (indentOf(line) < indent || (indentOf(line) === indent && !line.trimStart().startsWith('-'))) break;
    const item = /^\s*-\s+(.+)$/.exec(bare(line))?.[1];
    if (item && indentOf(line) >= indent) items.push(item.replace(/^["']|["']$/g, ''));
  }
  return items;
}

export function parseManifest(text: string): ManifestFacts {
  const lines = text.split(/\r?\n/);
  // `bot:` under `oauth_config:` → `scopes:` (the first `bot:` after a `scopes:` line).
  const scopesAt = lines.findIndex((l) => bare(l) === 'scopes:');
  const botScopes = listUnder(lines, (l, i) => i > scopesAt && scopesAt >= 0 && bare(l) === 'bot:');
  const commands = lines
    .map((l) => /^\s*-?\s*command:\s*["']?(\/[\w-]+)/.exec(l)?.[1])
    .filter((c): c is string => c !== undefined);
  return { botScopes, commands, shortcuts: shortcutsOf(lines) };
}

/** The `features.shortcuts` items: `- key: value` opens one, `key: value` lines below it fill it. */
function shortcutsOf(lines: string[]): ManifestShortcut[] {
  const start = lines.findIndex((l) => bare(l) === 'shortcuts:');
  if (start < 0) return [];
  const indent = indentOf(lines[start] as string);
  const items: Record<string, string>[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!bare(line)) continue;
    if (indentOf(line) <= indent) break;
    const field = /^\s*(-\s+)?(\w+):\s*["']?(.*?)["']?$/.exec(bare(line));
    if (!field) continue;
    if (field[1] || !items.length) items.push({});
    (items.at(-1) as Record<string, string>)[field[2] as string] = field[3] as string;
  }
  return items.flatMap((i) =>
    (i.type === 'global' || i.type === 'message') && i.callback_id
      ? [
          {
            type: i.type,
            callback_id: i.callback_id,
            name: i.name ?? i.callback_id,
            ...(i.description ? { description: i.description } : {}),
          },
        ]
      : [],
  );
}

/** manifest.yml at the root of the project (beside package.json), from src/doctor or dist/doctor. */
export function readManifest(
  path: URL | string = new URL('../../manifest.yml', import.meta.url),
): ManifestFacts {
  return parseManifest(readFileSync(path, 'utf8'));
}
