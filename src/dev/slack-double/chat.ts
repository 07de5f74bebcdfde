import { checkBlocks } from './checks.js';
import type { DoubleContext, Methods } from './context.js';
import type { SlackMessage } from './types.js';

/** `chat.*`: messages posted, edited and deleted, private messages, permalinks. */
export function chatMethods({ double, nextTs, addEphemeral }: DoubleContext): Methods {
  return {
    'chat.postMessage': {
      blocks: 'message',
      changes: true,
      answer: (a) => {
        const channel = a.channel as string | undefined;
        if (channel && double.notInChannel.has(channel)) return { ok: false, error: 'not_in_channel' };
        const message: SlackMessage = {
          channel: channel ?? '',
          ts: nextTs(),
          text: a.text as string | undefined,
          blocks: a.blocks as unknown[] | undefined,
          thread_ts: a.thread_ts as string | undefined,
          metadata: a.metadata,
          user: double.botUserId,
        };
        double.messages.push(message);
        return { ok: true, channel, ts: message.ts, message };
      },
    },
    'chat.update': {
      blocks: 'message',
      changes: true,
      answer: (a) => {
        const channel = a.channel as string | undefined;
        const m = double.messages.find((x) => x.channel === channel && x.ts === a.ts);
        if (!m) return { ok: false, error: 'message_not_found' };
        m.edited = true;
        m.text = (a.text as string | undefined) ?? m.text;
        m.blocks = (a.blocks as unknown[] | undefined) ?? m.blocks;
        if (a.metadata !== undefined) m.metadata = a.metadata;
        return { ok: true, channel, ts: m.ts, text: m.text };
      },
    },
    'chat.delete': {
      changes: true,
      answer: (a) => {
        const channel = a.channel as string | undefined;
        const i = double.messages.findIndex((x) => x.channel === channel && x.ts === a.ts);
        if (i < 0) return { ok: false, error: 'message_not_found' };
        double.messages.splice(i, 1);
        return { ok: true, channel, ts: a.ts };
      },
    },
    'chat.postEphemeral': {
      blocks: 'message',
      changes: true,
      answer: (a) => {
        const channel = a.channel as string | undefined;
        if (channel && double.notInChannel.has(channel)) return { ok: false, error: 'not_in_channel' };
        const ephemeral = addEphemeral(String(a.user), channel ?? '', a.thread_ts as string | undefined, {
          text: a.text as string | undefined,
          blocks: a.blocks as unknown[] | undefined,
        });
        return { ok: true, message_ts: ephemeral.ts };
      },
    },
    // An app's previews of the links in a message (or the composer's, by unfurl id): a later call for
    // the same message and link replaces the preview, as Slack's does.
    'chat.unfurl': {
      changes: true,
      texts: (a) => a.unfurls,
      answer: (a) => {
        const unfurls = a.unfurls as Record<string, { blocks?: unknown[] }> | undefined;
        if (!unfurls || typeof unfurls !== 'object') return { ok: false, error: 'invalid_unfurls_format' };
        // An unfurl is checked as a message's blocks; it has no fallback text of its own (Slack makes
        // its preview from the blocks).
        for (const unfurl of Object.values(unfurls))
          if (!checkBlocks(double.violations, 'chat.unfurl', { text: 'unfurl', ...unfurl }, 'message'))
            return { ok: false, error: 'invalid_blocks' };
        if (a.unfurl_id !== undefined || a.source !== undefined)
          return a.unfurl_id && a.source ? { ok: true } : { ok: false, error: 'invalid_arguments' };
        const m = double.messages.find((x) => x.channel === a.channel && x.ts === a.ts);
        if (!m) return { ok: false, error: 'cannot_find_message' };
        if (Object.keys(unfurls).some((url) => !(m.text ?? '').includes(url)))
          return { ok: false, error: 'cannot_unfurl_url' };
        m.unfurls = { ...m.unfurls, ...unfurls };
        return { ok: true };
      },
    },
    'chat.getPermalink': {
      answer: (a) => ({
        ok: true,
        channel: a.channel,
        permalink: `https://double.slack.test/archives/${a.channel}/p${String(a.message_ts).replace('.', '')}`,
      }),
    },
  };
}
