import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { ids } from '../../blocks/ids.js';
import { buildResultView, buildWorkingView } from '../../blocks/modal.js';
import { buildTicketCard } from '../../blocks/ticket-card.js';
import { buildTicketForm } from '../../blocks/ticket-form.js';
import type { TicketFormValues } from '../../domain/ticket.js';
import { PlatformInputError } from '../../platform/errors.js';
import { notKeptNotice } from '../../services/kept.js';
import type { TicketDeps } from '../actions/ticket-card.js';
import { detach } from '../after-ack.js';
import { describeError, inviteFix, isCannotPost, workingText } from '../describe-error.js';
import { replyError, updateView } from '../reply-error.js';
import { requestLog } from '../route.js';
import { readTicketForm } from './read-ticket-form.js';

const title = 'New ticket';

/**
 * Opens the create form. The trigger lasts 3 s and the group and agent lists come from the platform,
 * so a "Loading…" modal opens at once and the form replaces it when the lists are there.
 */
export async function openTicketForm(
  deps: TicketDeps & { waitMs: () => number },
  client: WebClient,
  triggerId: string,
  user: string,
  values: TicketFormValues,
): Promise<void> {
  const opened = await client.views.open({
    trigger_id: triggerId,
    view: buildWorkingView(title, workingText('Loading the groups and agents', deps.waitMs())),
  });
  const viewId = opened.view?.id as string;
  // The agent defaults to the person, when they have a platform account.
  const agent = values.agent ?? (await deps.tickets.agentFor(user));
  const show = updateView(client, viewId);
  await deps.tickets.formChoices(user).then(
    (choices) => show(buildTicketForm({ values: { ...values, agent }, choices, metadata: '' })),
    (error: unknown) =>
      replyError({ kind: 'modal', show, title, log: requestLog(deps.logger, { user }) }, error),
  );
}

/** The input a platform refusal names, as a block id of the form. */
function fieldOf(error: unknown): string | undefined {
  if (!(error instanceof PlatformInputError)) return undefined;
  const blocks = ids.ticketForm as Record<string, string>;
  return blocks[error.field];
}

/**
 * Submission of the ticket form: rule breaks inline at once; otherwise a "Working…" view, the ticket
 * created, its card posted in the chosen channel (which then follows it), and the outcome shown. A
 * refusal brings the form back with everything typed and the reason.
 */
export function registerTicketForm(app: App, deps: TicketDeps & { waitMs: () => number }): void {
  app.view(ids.views.ticketForm, async ({ ack, body, view, client }) => {
    const read = readTicketForm(view.state.values);
    if (!read.ok) return ack({ response_action: 'errors', errors: read.errors });
    await ack({
      response_action: 'update',
      view: buildWorkingView(title, workingText('Creating the ticket', deps.waitMs())),
    });
    const viewId = view.id;
    const user = body.user.id;
    const values = read.values;
    const log = requestLog(deps.logger, { user, team: body.team?.id, callback: view.callback_id });
    detach(deps.logger, async () => {
      const show = updateView(client, viewId);
      const channel = values.channel as string;
      // A refusal brings the form back with everything typed, the reason under the input it names.
      const again = async (message: string, error: unknown) => {
        const field = fieldOf(error);
        const choices = await deps.tickets.formChoices(user).catch(() => ({ groups: [], users: [] }));
        return buildTicketForm({
          values,
          choices,
          metadata: '',
          notices: [`Nothing was created. ${field ? 'Please check the field marked below.' : message}`],
          ...(field ? { problems: { [field]: message } } : {}),
        });
      };
      const ticket = await deps.tickets.create(user, values).catch(async (error: unknown) => {
        await replyError({ kind: 'modal', show, title, again, log, channel }, error);
        return undefined;
      });
      if (!ticket) return;
      // The platform has the ticket now: from here on a failure concerns only its card.
      const card = buildTicketCard(ticket);
      let outcome = `:white_check_mark: Ticket *${ticket.reference ?? ticket.id}* is created. Its card is in <#${channel}>, which follows it.`;
      let extra = [] as typeof card.blocks;
      try {
        await deps.publisher.postCard(channel, ticket);
        // The line (with its cover of the platform's creation events) before the watch: a scan
        // between the two would otherwise tell those events too.
        await deps.publisher.ticketChanged({ kind: 'created', ticket }, user);
        // The channel a ticket was created from follows it.
        await deps.subscriptions.watch(channel, ticket, user);
      } catch (error) {
        outcome = `:white_check_mark: Ticket *${ticket.reference ?? ticket.id}* is created, but ${
          isCannotPost(error)
            ? inviteFix(channel)
            : `its card could not be posted: ${describeError(error, log)}`
        }`;
        extra = card.blocks;
      }
      // A field the platform silently dropped is said, never lost (findings has it for the doctor).
      const dropped = notKeptNotice(ticket.notKept);
      await show(buildResultView(title, dropped ? `${outcome}\n${dropped}` : outcome, extra));
    });
  });
}
