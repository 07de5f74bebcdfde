import type { Button, ConfirmationDialog, SectionBlock } from '@slack/types';
import { type Block, button, context as contextOf, section as sectionOf } from './kit.js';
import { Mrkdwn, sentence } from './mrkdwn.js';

/*
 * Transitional: the string-taking primitives src/slack still imports from conference-card.ts, kept
 * so that its listeners compile while they move to md`…`. A string here is a sentence composed there
 * (see `sentence`: bot tokens stay live, any other `<`/`>` is escaped). Builders in src/blocks may
 * not use these (biome's noRestrictedImports, see biome.json): they take `Mrkdwn` only.
 */

/** Text from src/slack: `Mrkdwn`, or a sentence composed as a string there. */
export type LegacyText = Mrkdwn | string;

/** `Mrkdwn` as it is, a string read as a sentence. */
export const fromLegacy = (text: LegacyText): Mrkdwn => (text instanceof Mrkdwn ? text : sentence(text));

/** A message as src/slack still builds some (its text a string): builders return kit's `MessagePayload`. */
export interface LegacyMessagePayload {
  text: string;
  blocks: Block[];
}

/** `section` for src/slack's strings (exported as `section` from conference-card.ts). */
export const legacySection = (text: LegacyText, extra: Omit<SectionBlock, 'type' | 'text'> = {}): Block =>
  sectionOf(fromLegacy(text), extra);
/** `context` for src/slack's strings (exported as `context` from conference-card.ts). */
export const legacyContext = (text: LegacyText): Block => contextOf(fromLegacy(text));

/** A button whose confirmation dialog src/slack builds itself (its texts are its own constants). */
export const legacyButton = (
  text: string,
  actionId: string,
  extra: { value?: string; url?: string; style?: 'primary' | 'danger'; confirm?: ConfirmationDialog } = {},
): Button => button(text, actionId, extra);
