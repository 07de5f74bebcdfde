import type { WebClient } from '@slack/web-api';
import { type MessagePayload, type Reply, type TextMessage, textMessage } from '../../blocks/kit.js';
import { Mrkdwn } from '../../blocks/mrkdwn.js';

/** Answers a request privately (a response_url, or `ephemeralTo`'s post), with a `Reply` only. */
type Responder = (message: Reply) => Promise<unknown>;

/**
 * A private reply that adds a message (a click's or a command's), leaving the original in place: a
 * sentence made with md`…`, or a builder's message. A raw string is a type error.
 */
export const ephemeral = (message: Mrkdwn | TextMessage | MessagePayload) => ({
  response_type: 'ephemeral' as const,
  replace_original: false as const,
  ...(message instanceof Mrkdwn ? textMessage(message) : message),
});

/**
 * A `Responder` for a request without a response_url (an event such as `reaction_added`): each
 * reply goes to `user` alone, in `channel` (`chat.postEphemeral`), as a response_url's private one.
 */
export const ephemeralTo =
  (client: WebClient, channel: string, user: string): Responder =>
  async (reply: Reply) => {
    await client.chat.postEphemeral({
      channel,
      user,
      text: reply.text ?? '',
      ...(reply.blocks ? { blocks: reply.blocks } : {}),
    });
  };
