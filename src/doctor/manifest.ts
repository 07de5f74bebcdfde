import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';

/*
 * What the doctor compares with the installed app (the bot scopes and slash commands of
 * manifest.yml), and the shortcuts and commands the playground offers.
 */

/** The parts of manifest.yml the bot reads. */
export interface ManifestFacts {
  botScopes: string[];
  commands: string[];
  shortcuts: ManifestShortcut[];
  /** `features.unfurl_domains`: the domains whose links Slack sends to the app (`link_shared`). */
  unfurlDomains: string[];
}

/** One of `features.shortcuts`. */
export interface ManifestShortcut {
  type: 'global' | 'message';
  callback_id: string;
  name: string;
  description?: string;
}

// Only the fields read; Slack's own manifest schema checks the rest when the app is created.
const manifestSchema = z.object({
  oauth_config: z.object({ scopes: z.object({ bot: z.array(z.string()).default([]) }) }),
  features: z
    .object({
      slash_commands: z.array(z.object({ command: z.string() })).default([]),
      shortcuts: z
        .array(
          z.object({
            type: z.enum(['global', 'message']),
            callback_id: z.string(),
            name: z.string(),
            description: z.string().optional(),
          }),
        )
        .default([]),
      unfurl_domains: z.array(z.string()).default([]),
    })
    .default({ slash_commands: [], shortcuts: [], unfurl_domains: [] }),
});

/** The facts of a manifest's text; throws one sentence naming the file's problem when it is malformed. */
export function parseManifest(text: string): ManifestFacts {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new Error(`manifest.yml is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  const read = manifestSchema.safeParse(doc);
  if (!read.success) {
    const issue = read.error.issues[0];
    throw new Error(`manifest.yml: ${issue?.path.join('.') || 'the document'}: ${issue?.message}`);
  }
  const { oauth_config, features } = read.data;
  return {
    botScopes: oauth_config.scopes.bot,
    commands: features.slash_commands.map((c) => c.command),
    // exactOptionalPropertyTypes: a shortcut without a description has no such key.
    shortcuts: features.shortcuts.map(({ description, ...s }) => (description ? { ...s, description } : s)),
    unfurlDomains: features.unfurl_domains,
  };
}

/** manifest.yml at the root of the project (beside package.json), from src/doctor or dist/doctor. */
export function readManifest(
  path: URL | string = new URL('../../manifest.yml', import.meta.url),
): ManifestFacts {
  return parseManifest(readFileSync(path, 'utf8'));
}

/**
 * The Workflow Builder steps' scopes: what the steps use of the bot's token (cards, the person's
 * Slack e-mail), all of manifest.yml's too. `functions` adds none: each run brings its own token.
 */
export const stepScopes = ['chat:write', 'users:read', 'users:read.email'] as const;
