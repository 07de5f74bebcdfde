import type {
  ActionsBlock,
  ActionsBlockElement,
  Button,
  ConfirmationDialog,
  ContextBlock,
  HeaderBlock,
  KnownBlock,
  MrkdwnElement,
  PlainTextElement,
  SectionBlock,
} from '@slack/types';
import { limits } from './limits.js';
import { clipPlain, finish, type Mrkdwn, type MrkdwnText } from './mrkdwn.js';

/*
 * The Block Kit primitives every builder uses. Their mrkdwn texts take only `Mrkdwn` (made with md`…`
 * or `escaped`), so outside text cannot reach Slack's parser unescaped; plain_text is not parsed by
 * Slack and is only clipped. https://api.slack.com/reference/block-kit/composition-objects#text
 */

/**
 * A block, as Slack's own Block Kit types (`@slack/types`) describe it: the shapes are checked by the
 * compiler, the limits (lengths, counts) by `checkBlockKit`. Views are `ModalView`/`HomeView`.
 */
export type Block = KnownBlock;
/** Loose Block Kit JSON, for the few places that read a payload back (the Slack double, tests). */
export type Json = Record<string, unknown>;

/** A message as the builders make it: its fallback `text` (what notifications show) is mrkdwn too. */
export interface MessagePayload {
  text: MrkdwnText;
  blocks: KnownBlock[];
}

/** A mrkdwn text object, clipped to `max` without cutting an escape or a token. */
export const mrkdwn = (
  text: Mrkdwn,
  max: number = limits.sectionText,
): MrkdwnElement & { text: MrkdwnText } => ({
  type: 'mrkdwn',
  text: finish(text, max),
});

/** A plain_text object: Slack shows it as it is (no mention, no link), so it is only clipped. */
export const plain = (text: string, max: number): PlainTextElement => ({
  type: 'plain_text',
  text: clipPlain(text, max),
  emoji: true,
});

/** A section whose text is mrkdwn (`extra`: an accessory, fields…). */
export const section = (text: Mrkdwn, extra: Omit<SectionBlock, 'type' | 'text'> = {}): SectionBlock => ({
  type: 'section',
  text: mrkdwn(text),
  ...extra,
});

/** An actions block: a row of buttons, menus, pickers (Slack allows 25 a block). */
export const actions = (elements: ActionsBlockElement[], blockId?: string): ActionsBlock => ({
  type: 'actions',
  ...(blockId !== undefined ? { block_id: blockId } : {}),
  elements,
});

/** A header: plain text, up to 150 characters. */
export const header = (text: string): HeaderBlock => ({
  type: 'header',
  text: plain(text, limits.headerText),
});

/** A context block of one mrkdwn element: the small grey line under a card. */
export const context = (text: Mrkdwn): ContextBlock => ({ type: 'context', elements: [mrkdwn(text)] });

/** A confirmation dialog: its text is mrkdwn, so it takes `Mrkdwn` like every other. */
export type Confirm = ConfirmationDialog;
export const confirmDialog = (o: {
  title: string;
  text: Mrkdwn;
  confirm: string;
  deny: string;
  danger?: boolean;
}): ConfirmationDialog => ({
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
): Button => ({ type: 'button', text: plain(text, limits.buttonText), action_id: actionId, ...extra });

/**
 * A message's fallback text, clipped to what Slack advises (longer texts are cut by Slack or shown
 * truncated in notifications). https://api.slack.com/methods/chat.postMessage#truncating
 */
export const fallbackText = (text: Mrkdwn): MrkdwnText => finish(text, limits.messageTextAdvised);

/** A message of one sentence and no blocks (a private reply, a notice): Slack shows its text. */
export interface TextMessage {
  text: MrkdwnText;
}

/** A message of one sentence (see `TextMessage`). */
export const textMessage = (text: Mrkdwn): TextMessage => ({ text: fallbackText(text) });

/** A message from its fallback text and blocks. */
export const message = (text: Mrkdwn, blocks: KnownBlock[]): MessagePayload => ({
  text: fallbackText(text),
  blocks,
});

/**
 * A reply through a response_url. Its `text` is a builder's finished mrkdwn (`MrkdwnText`, from kit's
 * `message`/`textMessage`), so a raw template string is a type error. Bolt's own `RespondFn` accepts it.
 */
export interface Reply {
  response_type?: 'in_channel' | 'ephemeral';
  replace_original?: boolean;
  delete_original?: boolean;
  text?: MrkdwnText;
  blocks?: KnownBlock[];
}
