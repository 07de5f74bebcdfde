import { type MessagePayload, type TextMessage, textMessage } from '../../blocks/kit.js';
import { Mrkdwn } from '../../blocks/mrkdwn.js';

/**
 * A private reply that adds a message (a click's or a command's), leaving the original in place: a
 * sentence made with md`…`, or a builder's message. A raw string is a type error.
 */
export const ephemeral = (message: Mrkdwn | TextMessage | MessagePayload) => ({
  response_type: 'ephemeral' as const,
  replace_original: false as const,
  ...(message instanceof Mrkdwn ? textMessage(message) : message),
});
