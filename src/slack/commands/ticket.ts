import type { App, BlockAction, ButtonAction, MessageShortcut, RespondFn } from '@slack/bolt';
import { section } from '../../blocks/conference-card.js';
import { buildTicketCard, buildTicketList } from '../../blocks/ticket-card.js';
import type { TicketFormValues } from '../../blocks/ticket-form.js';
import { parseTicketQuery } from '../../domain/ticket-query.js';
import { ticketPageSize } from '../../services/tickets.js';
import type { TicketDeps } from '../actions/ticket-card.js';
import { detach } from '../after-ack.js';
import { describeError, inviteFix, isCannotPost, tellIfSlow, workingText } from '../describe-error.js';
import { ids } from '../ids.js';
import { idValue, readJson, readValue, staleValue, ticketPage } from '../payloads.js';
import { openTicketForm } from '../views/ticket-form.js';
import { handleSubscriptionCommand } from './ticket-subscriptions.js';

/** Usage of `/ticket` (the parts built so far). */
export const ticketUsage = [
  '*`/ticket`* — remote-assistance tickets',
  '• `/ticket` opens the form; `/ticket new jane.doe@example.com +33612345678 Router does not boot` prefills it',
  '• `/ticket list [mine|all|group &lt;name&gt;|ref &lt;reference&gt;|&lt;search&gt;]` with `type:` `since:` `until:` `started:` `ended:` (YYYY-MM-DD) `requestor:&lt;id&gt;`',
  '• `/ticket show &lt;id or reference&gt;` posts the ticket’s live card here: its buttons move the ticket',
  '• `/ticket watch &lt;id or reference&gt;` · `/ticket unwatch &lt;id or reference&gt;`: this channel gets (or stops getting) the ticket’s events',
  '• `/ticket follow [group:"Level 1"] [agent:&lt;username&gt;] [type:&lt;t&gt;] [states:open,inprogress] [events:&lt;kinds&gt;] [broadcast]`: new tickets and their events',
  '• `/ticket subscriptions` lists what this channel follows',
  '• `/ticket help` shows this message',
].join('\n');

/** `/ticket new …`: e-mails and phone numbers for the requestor, the rest of the words as the subject. */
export function ticketFormFromText(text: string, channel: string | undefined): TicketFormValues {
  const emails: string[] = [];
  const phones: string[] = [];
  const words: string[] = [];
  for (const raw of text.split(/\s+/).filter(Boolean)) {
    const w = /^<(?:mailto|tel):([^|>]+)(?:\|[^>]*)?>$/.exec(raw)?.[1] ?? raw.replace(/[,;]$/, '');
    if (w.includes('@') && !w.startsWith('<')) emails.push(w);
    else if (/^\+[\d().-]{6,}$/.test(w)) phones.push(w);
    else words.push(raw);
  }
  const subject = words.join(' ').trim();
  return { channel, emails, phones, scopes: [], ...(subject ? { subject } : {}) };
}

/**
 * Posts (or re-posts) a ticket's card in a channel, for a person who may see the ticket (the card
 * carries no secret: join links are given on a click). When the bot is not in the channel, the
 * person gets the fix and the card's details privately.
 */
export async function postTicketCard(
  deps: TicketDeps,
  respond: RespondFn,
  where: { channel: string; user: string },
  ref: string,
): Promise<void> {
  const { channel } = where;
  const ticket = await deps.tickets.forAction(where.user, ref, 'ticket.see');
  try {
    // Its place is recorded: the publisher refreshes it on every change of the ticket.
    await deps.publisher.postCard(channel, ticket);
  } catch (error) {
    const card = buildTicketCard(ticket);
    if (!isCannotPost(error)) throw error;
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      text: inviteFix(channel),
      blocks: [section(inviteFix(channel)), ...card.blocks.filter((b) => b.type !== 'actions')],
    });
  }
}

/**
 * `/ticket`: no text or `new …` opens the create form (prefilled); `list …` answers a page of
 * tickets privately; `show` posts (or re-posts) a ticket's card in the channel, which then follows
 * the ticket; anything else gets the usage. Also the list's buttons and the message shortcut.
 */
export function registerTicketCommand(app: App, deps: TicketDeps & { waitMs: () => number }): void {
  app.command(ids.commands.ticket, async ({ ack, command, respond, client }) => {
    const [verb = '', ...rest] = (command.text ?? '').trim().split(/\s+/);
    const ref = rest.join(' ').replace(/^#/, '');
    const channel = command.channel_id;
    if (verb === '' || verb.toLowerCase() === 'new') {
      await ack();
      const values = ticketFormFromText(rest.join(' '), channel);
      return detach(deps.logger, () =>
        openTicketForm(deps, client, command.trigger_id, command.user_id, values).catch((error: unknown) =>
          respond({ response_type: 'ephemeral', text: describeError(error, deps.logger, channel) }),
        ),
      );
    }
    if (verb.toLowerCase() === 'list') {
      const text = rest.join(' ');
      const parsed = parseTicketQuery(text);
      if (!parsed.ok) return ack({ response_type: 'ephemeral', text: `${parsed.error}\n\n${ticketUsage}` });
      await ack({ response_type: 'ephemeral', text: workingText('Looking up the tickets', deps.waitMs()) });
      return detach(deps.logger, async () => {
        try {
          const page = await deps.tickets.list(command.user_id, parsed.query, 0);
          await respond({
            response_type: 'ephemeral',
            replace_original: true,
            ...buildTicketList(text, 0, ticketPageSize, page),
          });
        } catch (error) {
          await respond({
            response_type: 'ephemeral',
            replace_original: true,
            text: describeError(error, deps.logger, channel),
          });
        }
      });
    }
    const v = verb.toLowerCase();
    if (
      v === 'subscriptions' ||
      v === 'follow' ||
      ((v === 'watch' || v === 'unwatch') && ref && !/\s/.test(ref))
    ) {
      await ack({ response_type: 'ephemeral', text: workingText('Working', deps.waitMs()) });
      return detach(deps.logger, async () => {
        try {
          const postCard = (c: string, r: string, reply: RespondFn) =>
            postTicketCard(deps, reply, { channel: c, user: command.user_id }, r);
          await handleSubscriptionCommand(
            { ...deps, postCard },
            v,
            ref,
            { user: command.user_id, channel },
            respond,
          );
        } catch (error) {
          await respond({
            response_type: 'ephemeral',
            replace_original: true,
            text: describeError(error, deps.logger, channel),
          });
        }
      });
    }
    if (verb.toLowerCase() !== 'show' || !ref || /\s/.test(ref)) {
      const problem = verb.toLowerCase() !== 'help' ? 'I did not understand that.\n\n' : '';
      return ack({ response_type: 'ephemeral', text: `${problem}${ticketUsage}` });
    }
    await ack({ response_type: 'ephemeral', text: workingText('Looking up the ticket', deps.waitMs()) });
    detach(deps.logger, async () => {
      try {
        await postTicketCard(deps, respond, { channel, user: command.user_id }, ref);
        await respond({ delete_original: true });
      } catch (error) {
        await respond({
          response_type: 'ephemeral',
          replace_original: true,
          text: describeError(error, deps.logger, channel),
        });
      }
    });
  });

  // The list's buttons: Show posts the ticket's card in the channel; Next/Previous re-run the query.
  app.action<BlockAction<ButtonAction>>(
    new RegExp(`^(${ids.actions.ticketShow}|${ids.actions.ticketPage}):`),
    async ({ ack, body, action, respond }) => {
      await ack();
      const user = body.user.id;
      const channel = body.channel?.id ?? '';
      const value = action.value ?? '';
      const paging = action.action_id.startsWith(ids.actions.ticketPage);
      detach(deps.logger, async () => {
        await tellIfSlow(respond, paging ? 'Looking up the tickets' : 'Looking up the ticket', deps.waitMs());
        try {
          if (!paging)
            return await postTicketCard(deps, respond, { channel, user }, readValue(idValue, value));
          const { q, offset } = readJson(ticketPage, value);
          const parsed = parseTicketQuery(q);
          if (!parsed.ok) throw staleValue();
          const page = await deps.tickets.list(user, parsed.query, offset);
          await respond({
            response_type: 'ephemeral',
            replace_original: true,
            ...buildTicketList(q, offset, ticketPageSize, page),
          });
        } catch (error) {
          await respond({
            response_type: 'ephemeral',
            replace_original: false,
            text: describeError(error, deps.logger, channel),
          });
        }
      });
    },
  );

  // "Create assistance ticket" on a message: the form, with the message as description and a link back.
  app.shortcut<MessageShortcut>(ids.shortcuts.ticketFromMessage, async ({ ack, shortcut, client }) => {
    await ack();
    const channel = shortcut.channel.id;
    const messageTs = shortcut.message_ts;
    const messageText = shortcut.message.text ?? '';
    detach(deps.logger, async () => {
      const link = await client.chat.getPermalink({ channel, message_ts: messageTs }).then(
        (r) => r.permalink,
        () => undefined,
      );
      const description = [messageText, link ? `From Slack: ${link}` : undefined]
        .filter(Boolean)
        .join('\n\n');
      await openTicketForm(deps, client, shortcut.trigger_id, shortcut.user.id, {
        channel,
        emails: [],
        phones: [],
        scopes: [],
        description,
      });
    });
  });
}
