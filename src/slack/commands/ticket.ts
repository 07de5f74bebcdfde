import type { App, RespondFn } from '@slack/bolt';
import { section } from '../../blocks/conference-card.js';
import { ids } from '../../blocks/ids.js';
import { buildTicketCard, buildTicketList } from '../../blocks/ticket-card.js';
import type { TicketFormValues } from '../../domain/ticket.js';
import { parseTicketQuery } from '../../domain/ticket-query.js';
import { ticketPageSize } from '../../services/tickets.js';
import type { TicketDeps } from '../actions/ticket-card.js';
import { inviteFix, isCannotPost, workingText } from '../describe-error.js';
import { afterAck, requestLog } from '../route.js';
import { openTicketForm } from '../views/ticket-form.js';
import { handleSubscriptionCommand } from './ticket-subscriptions.js';

/** Usage of `/ticket`. */
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
 * tickets privately; `show` posts (or re-posts) a ticket's live card in the channel (its thread gets
 * the ticket's events once the channel `watch`es it); anything else gets the usage. (The list's buttons: `actions/ticket-list.ts`.)
 */
export function registerTicketCommand(app: App, deps: TicketDeps & { waitMs: () => number }): void {
  app.command(ids.commands.ticket, async ({ ack, command, respond, client }) => {
    const [verb = '', ...rest] = (command.text ?? '').trim().split(/\s+/);
    const ref = rest.join(' ').replace(/^#/, '');
    const channel = command.channel_id;
    const log = requestLog(deps.logger, {
      user: command.user_id,
      team: command.team_id,
      command: command.command,
    });
    // After the ack, detached; a failure replaces the "Working…" reply.
    const surface = { kind: 'command', respond, channel, log } as const;
    if (verb === '' || verb.toLowerCase() === 'new') {
      await ack();
      const values = ticketFormFromText(rest.join(' '), channel);
      return afterAck({ ...surface, replace: false }, () =>
        openTicketForm(deps, client, command.trigger_id, command.user_id, values),
      );
    }
    if (verb.toLowerCase() === 'list') {
      const text = rest.join(' ');
      const parsed = parseTicketQuery(text);
      if (!parsed.ok) return ack({ response_type: 'ephemeral', text: `${parsed.error}\n\n${ticketUsage}` });
      await ack({ response_type: 'ephemeral', text: workingText('Looking up the tickets', deps.waitMs()) });
      return afterAck(surface, async () => {
        const page = await deps.tickets.list(command.user_id, parsed.query, 0);
        await respond({
          response_type: 'ephemeral',
          replace_original: true,
          ...buildTicketList(text, 0, ticketPageSize, page),
        });
      });
    }
    const v = verb.toLowerCase();
    if (
      v === 'subscriptions' ||
      v === 'follow' ||
      ((v === 'watch' || v === 'unwatch') && ref && !/\s/.test(ref))
    ) {
      await ack({ response_type: 'ephemeral', text: workingText('Working', deps.waitMs()) });
      return afterAck(surface, async () => {
        const postCard = (c: string, r: string, reply: RespondFn) =>
          postTicketCard(deps, reply, { channel: c, user: command.user_id }, r);
        await handleSubscriptionCommand(
          { ...deps, postCard },
          v,
          ref,
          { user: command.user_id, channel },
          respond,
        );
      });
    }
    if (verb.toLowerCase() !== 'show' || !ref || /\s/.test(ref)) {
      const problem = verb.toLowerCase() !== 'help' ? 'I did not understand that.\n\n' : '';
      return ack({ response_type: 'ephemeral', text: `${problem}${ticketUsage}` });
    }
    await ack({ response_type: 'ephemeral', text: workingText('Looking up the ticket', deps.waitMs()) });
    afterAck(surface, async () => {
      await postTicketCard(deps, respond, { channel, user: command.user_id }, ref);
      await respond({ delete_original: true });
    });
  });
}
