import { limits } from './limits.js';
import { clipPlain, finish, type Mrkdwn, type MrkdwnText } from './mrkdwn.js';

/*
 * The Block Kit primitives every builder uses. Their mrkdwn texts take only `Mrkdwn` (made with md`…`
 * or `escaped`), so outside text cannot reach Slack's parser unescaped; plain_text is not parsed by
 * Slack and is only clipped. https://api.slack.com/reference/block-kit/composition-objects#text
 */

/** Block Kit blocks, loosely typed: builders return plain JSON that `checkBlockKit` verifies. */
export type Block = { type: string } & Record<string, unknown>;
/** Any other Block Kit JSON object (elements, composition objects). */
export type Json = Record<string, unknown>;

/** A message as the builders make it: its fallback `text` (what notifications show) is mrkdwn too. */
export interface MessagePayload {
  text: MrkdwnText;
  blocks: Block[];
}

/** A mrkdwn text object, clipped to `max` without cutting an escape or a token. */
export const mrkdwn = (text: Mrkdwn, max: number = limits.sectionText) => ({
  type: 'mrkdwn' as const,
  text: finish(text, max),
});

/** A plain_text object: Slack shows it as it is (no mention, no link), so it is only clipped. */
export const plain = (text: string, max: number) => ({
  type: 'plain_text' as const,
  text: clipPlain(text, max),
  emoji: true,
});

/** A section whose text is mrkdwn (`extra`: an accessory, fields…). */
export const section = (text: Mrkdwn, extra: Json = {}): Block => ({
  type: 'section',
  text: mrkdwn(text),
  ...extra,
});

/** A context block of one mrkdwn element: the small grey line under a card. */
export const context = (text: Mrkdwn): Block => ({ type: 'context', elements: [mrkdwn(text)] });

/** A confirmation dialog: its text is mrkdwn, so it takes `Mrkdwn` like every other. */
export type Confirm = ReturnType<typeof confirmDialog>;
export const confirmDialog = (o: {
  title: string;
  text: Mrkdwn;
  confirm: string;
  deny: string;
  danger?: boolean;
}) => ({
  title: plain(o.title, limits.confirmTitle),
  text: mrkdwn(o.text, limits.confirmText),
  confirm: plain(o.confirm, limits.confirmButton),
  deny: plain(o.deny, limits.confirmButton),
  ...(o.danger ? { style: 'danger' as const } : {}),
});

/** A button; its label is plain text and its confirmation dialog is built by `confirmDialog`. */
export const button = (
  text: string,
  actionId: string,
  extra: { value?: string; url?: string; style?: 'primary' | 'danger'; confirm?: Confirm } = {},
): Json => ({ type: 'button', text: plain(text, limits.buttonText), action_id: actionId, ...extra });

/**
 * A message's fallback text, clipped to what Slack advises (longer texts are cut by Slack or shown
 * truncated in notifications). https://api.slack.com/methods/chat.postMessage#truncating
 */
export const fallbackText = (text: Mrkdwn): MrkdwnText => finish(text, limits.messageTextAdvised);

/** A message from its fallback text and blocks. */
export const message = (text: Mrkdwn, blocks: Block[]): MessagePayload => ({
  text: fallbackText(text),
  blocks,
});
