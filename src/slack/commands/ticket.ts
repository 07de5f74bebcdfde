import type { AllMiddlewareArgs, App, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { ids } from '../../blocks/ids.js';
import { textMessage } from '../../blocks/kit.js';
import { md } from '../../blocks/mrkdwn.js';
import { buildTicketList } from '../../blocks/ticket-card.js';
import { buildUsage } from '../../blocks/usage.js';
import type { TicketFormValues } from '../../domain/ticket.js';
import { parseTicketQuery } from '../../domain/ticket-query.js';
import { ticketPageSize } from '../../services/tickets.js';
import type { TicketFormDeps } from '../deps.js';
import { openTicketForm } from '../openers/forms.js';
import { postTicketCard } from '../openers/post-ticket-card.js';
import type { Responder } from '../replies/reply-error.js';
import { workingText } from '../replies/working-notice.js';
import { afterAck, requestLog } from '../runtime/after-ack.js';
import { handleSubscriptionCommand } from './ticket-subscriptions.js';

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
 * `/ticket`: no text or `new …` opens the create form (prefilled); `list …` answers a page of
 * tickets privately; `show` posts (or re-posts) a ticket's live card in the channel (its thread gets
 * the ticket's events once the channel `watch`es it); anything else gets the usage. (The list's buttons: `actions/ticket-list.ts`.)
 */
export const handleTicketCommand =
  (deps: TicketFormDeps) =>
  async ({
    ack,
    command,
    respond: boltRespond,
    client,
  }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    const respond: Responder = boltRespond;
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
      if (!parsed.ok) return ack({ response_type: 'ephemeral', ...buildUsage('ticket', parsed.error) });
      await ack({
        response_type: 'ephemeral',
        ...textMessage(workingText('Looking up the tickets', deps.waitMs())),
      });
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
      await ack({ response_type: 'ephemeral', ...textMessage(workingText('Working', deps.waitMs())) });
      return afterAck(surface, async () => {
        const postCard = async (c: string, r: string, reply: Responder) => {
          await postTicketCard(deps, reply, { channel: c, user: command.user_id }, r);
        };
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
      return ack({
        response_type: 'ephemeral',
        ...(verb.toLowerCase() !== 'help'
          ? buildUsage('ticket', md`I did not understand that.`)
          : buildUsage('ticket')),
      });
    }
    await ack({
      response_type: 'ephemeral',
      ...textMessage(workingText('Looking up the ticket', deps.waitMs())),
    });
    afterAck(surface, async () => {
      const done = await postTicketCard(deps, respond, { channel, user: command.user_id }, ref, {
        reuse: { replace: true },
      });
      if (done !== 'linked') await respond({ delete_original: true });
    });
  };

/** Registers `handleTicketCommand`. */
export function registerTicketCommand(app: App, deps: TicketFormDeps): void {
  app.command(ids.commands.ticket, handleTicketCommand(deps));
}
