import type { App, BlockAction, ButtonAction, OverflowAction } from '@slack/bolt';
import { button, section } from '../../blocks/conference-card.js';
import { buildResultView, buildWorkingView } from '../../blocks/conference-form.js';
import { limits } from '../../blocks/limits.js';
import { buildTicketMediaList, buildTimeline } from '../../blocks/ticket-card.js';
import { buildTicketEditForm, buildTicketExportForm } from '../../blocks/ticket-form.js';
import { editableFields } from '../../services/tickets.js';
import { detach } from '../after-ack.js';
import { describeError, tellIfSlow, workingText } from '../describe-error.js';
import { ids } from '../ids.js';
import {
  type CardPlace,
  cardPlace,
  mediaPost,
  readJson,
  readValue,
  staleValue,
  ticketMenuValue,
} from '../payloads.js';
import { uploadToThread } from '../upload-to-thread.js';
import { viewState } from '../views/view-state.js';
import { type TicketDeps, ticketOfCard } from './ticket-card.js';

/**
 * A card place read from a value or a form: its channel and message are kept only when the store
 * says the bot posted this ticket's card there, so a forged place cannot make the bot edit or post
 * under another message.
 */
async function trustedPlace(deps: Pick<TicketDeps, 'store'>, place: CardPlace): Promise<CardPlace> {
  if (!place.channel || !place.ts) return { ticketId: place.ticketId };
  const card = await deps.store.at(place.channel, place.ts);
  return card?.ticketId === place.ticketId ? place : { ticketId: place.ticketId };
}

const ephemeral = (text: string) => ({ response_type: 'ephemeral' as const, replace_original: false, text });

/**
 * The ticket card's menu: the timeline posted in the card's thread, Media (listed privately, each
 * file postable into the thread), Export (format and timeline; the file posted in the thread), Edit (a form; only changed fields
 * are sent; the card updated in place and the thread told), Delete (a private prompt whose button asks
 * for confirmation). Each checks the person may act on the ticket.
 */
export function registerTicketMenu(app: App, deps: TicketDeps & { waitMs: () => number }): void {
  app.action<BlockAction<OverflowAction>>(
    ids.actions.ticketMenu,
    async ({ ack, body, action, client, respond }) => {
      await ack();
      const value = action.selected_option.value;
      const container = {
        channel: body.container?.channel_id as string | undefined,
        ts: body.container?.message_ts as string | undefined,
      };
      const user = body.user.id;
      const triggerId = body.trigger_id;
      detach(deps.logger, async () => {
        try {
          const { kind, ticketId: named } = readValue(ticketMenuValue, value);
          const ticketId = await ticketOfCard(deps, container, named);
          const place: CardPlace = { ticketId, ...container };
          if (kind === 'timeline') {
            const { ticket, events } = await deps.tickets.timeline(user, ticketId);
            const timeline = buildTimeline(ticket, events);
            if (place.channel && place.ts)
              await client.chat.postMessage({ channel: place.channel, thread_ts: place.ts, ...timeline });
            else await respond({ response_type: 'ephemeral', replace_original: false, ...timeline });
          } else if (kind === 'media') {
            const { ticket, items, total } = await deps.tickets.medias(user, ticketId);
            const list = items.map((m) => ({
              id: String(m.id),
              type: m.type,
              title: m.title,
              filename: m.filename,
              size: m.size,
              created: m.created,
            }));
            await respond({
              response_type: 'ephemeral',
              replace_original: false,
              ...buildTicketMediaList(ticket, list, total, place),
            });
          } else if (kind === 'export') {
            await deps.tickets.forAction(user, ticketId, 'ticket.export');
            await client.views.open({
              trigger_id: triggerId,
              view: buildTicketExportForm(JSON.stringify(place)) as never,
            });
          } else if (kind === 'delete') {
            const ticket = await deps.tickets.forAction(user, ticketId, 'ticket.delete');
            const name = ticket.reference ?? `ticket ${ticket.id}`;
            await respond({
              response_type: 'ephemeral',
              replace_original: false,
              text: `Delete ${name}?`,
              blocks: [
                section(`Delete *${name}*? It is removed from the video platform for good.`),
                {
                  type: 'actions',
                  elements: [
                    button('Delete ticket', ids.actions.ticketDelete, {
                      style: 'danger',
                      value: JSON.stringify(place).slice(0, limits.buttonValue),
                      confirm: {
                        title: { type: 'plain_text', text: 'Delete this ticket?' },
                        text: { type: 'mrkdwn', text: 'This cannot be undone.' },
                        confirm: { type: 'plain_text', text: 'Delete' },
                        deny: { type: 'plain_text', text: 'Keep it' },
                        style: 'danger',
                      },
                    }),
                  ],
                },
              ],
            });
          } else if (kind === 'edit') {
            // The trigger lasts 3 s: open at once, fill when the ticket and the lists are read.
            const opened = await client.views.open({
              trigger_id: triggerId,
              view: buildWorkingView(
                'Edit ticket',
                workingText('Loading the ticket', deps.waitMs()),
              ) as never,
            });
            const viewId = opened.view?.id as string;
            try {
              const [ticket, choices] = await Promise.all([
                deps.tickets.forAction(user, ticketId, 'ticket.edit'),
                deps.tickets.formChoices(user),
              ]);
              const values = editableFields(ticket);
              await client.views.update({
                view_id: viewId,
                view: buildTicketEditForm({ values, choices, metadata: JSON.stringify(place) }) as never,
              });
            } catch (error) {
              const message = describeError(error, deps.logger, container.channel);
              await client.views.update({
                view_id: viewId,
                view: buildResultView('Edit ticket', message) as never,
              });
              await respond(ephemeral(message));
            }
          }
        } catch (error) {
          await respond(ephemeral(describeError(error, deps.logger, container.channel)));
        }
      });
    },
  );

  app.action<BlockAction<ButtonAction>>(ids.actions.ticketDelete, async ({ ack, body, action, respond }) => {
    await ack();
    const value = action.value;
    const user = body.user.id;
    detach(deps.logger, async () => {
      await tellIfSlow(respond, 'Deleting the ticket', deps.waitMs());
      let place: CardPlace | undefined;
      try {
        place = await trustedPlace(deps, readJson(cardPlace, value));
        const ticket = await deps.tickets.remove(user, place.ticketId);
        await respond({
          replace_original: true,
          text: `Deleted ${ticket.reference ?? `ticket ${ticket.id}`}.`,
        });
        // Every card of the ticket says so, and each card's thread says who.
        await deps.publisher.ticketChanged({ kind: 'deleted', ticket }, user);
      } catch (error) {
        await respond(ephemeral(describeError(error, deps.logger, place?.channel)));
      }
    });
  });

  app.action<BlockAction<ButtonAction>>(
    new RegExp(`^${ids.actions.ticketMediaPost}:`),
    async ({ ack, body, action, client, respond }) => {
      await ack();
      const user = body.user.id;
      const value = action.value;
      const channel = body.channel?.id;
      detach(deps.logger, async () => {
        await tellIfSlow(respond, 'Fetching the file', deps.waitMs());
        try {
          const m = readJson(mediaPost, value);
          // The thread must be this ticket's card, as the store knows it.
          const place = await trustedPlace(deps, { ticketId: m.k, channel: m.c, ts: m.t });
          if (!place.ts) throw staleValue();
          const { file } = await deps.tickets.download(user, m.k, m.m);
          await uploadToThread(
            client,
            file,
            {
              channel: m.c,
              threadTs: m.t,
              filename: m.n ?? `media-${m.m}`,
              title: m.n ?? `Media ${m.m}`,
              comment: `<@${user}> shared a file of the ticket.`,
            },
            m.s,
          );
        } catch (error) {
          await respond(ephemeral(describeError(error, deps.logger, channel)));
        }
      });
    },
  );

  app.view(ids.views.ticketExport, async ({ ack, body, view, client }) => {
    const metadata = view.private_metadata;
    const { option, chosen } = viewState(view.state.values);
    const format = option('format') ?? 'json';
    const timeline = chosen('timeline').has('timeline');
    await ack({
      response_action: 'update',
      view: buildWorkingView('Export ticket', workingText('Exporting the ticket', deps.waitMs())) as never,
    });
    const user = body.user.id;
    const viewId = view.id;
    detach(deps.logger, async () => {
      let outcome: string;
      let place: CardPlace | undefined;
      try {
        place = await trustedPlace(deps, readJson(cardPlace, metadata));
        const { ticket, file } = await deps.tickets.export(user, place.ticketId, format, timeline);
        const name = `${ticket.reference ?? `ticket-${ticket.id}`}.${format}`;
        if (place.channel && place.ts) {
          await uploadToThread(client, file, {
            channel: place.channel,
            threadTs: place.ts,
            filename: name,
            title: name,
            comment: `<@${user}> exported the ticket.`,
          });
          outcome = `:white_check_mark: The export is in the ticket card's thread.`;
        } else {
          file.body.destroy();
          outcome =
            'The export is ready, but this card has no thread to post it in: use the card in the channel.';
        }
      } catch (error) {
        outcome = `The export failed. ${describeError(error, deps.logger, place?.channel)}`;
      }
      await client.views.update({
        view_id: viewId,
        view: buildResultView('Export ticket', outcome) as never,
      });
    });
  });

  app.view(ids.views.ticketEdit, async ({ ack, body, view, client }) => {
    const metadata = view.private_metadata;
    const { str, option } = viewState(view.state.values);
    const e = ids.ticketEdit;
    const values = {
      subject: str(e.subject),
      description: str(e.description),
      reference: str(e.reference),
      state: option(e.state),
      agent: option(e.agent),
      groupId: option(e.groupId),
    };
    await ack({
      response_action: 'update',
      view: buildWorkingView('Edit ticket', workingText('Saving the ticket', deps.waitMs())) as never,
    });
    const user = body.user.id;
    const viewId = view.id;
    detach(deps.logger, async () => {
      const show = (v: unknown) => client.views.update({ view_id: viewId, view: v as never });
      let place: CardPlace | undefined;
      try {
        place = await trustedPlace(deps, readJson(cardPlace, metadata));
        const { after, changed } = await deps.tickets.edit(user, place.ticketId, values);
        if (changed.length) await deps.publisher.ticketChanged({ kind: 'edited', after, changed }, user);
        await show(
          buildResultView(
            'Edit ticket',
            changed.length ? `:white_check_mark: Saved: ${changed.join(', ')}.` : 'Nothing changed.',
          ),
        );
      } catch (error) {
        const choices = await deps.tickets.formChoices(user).catch(() => ({ groups: [], users: [] }));
        await show(
          buildTicketEditForm({
            values,
            choices,
            metadata,
            notices: [`Nothing was saved. ${describeError(error, deps.logger, place?.channel)}`],
          }),
        );
      }
    });
  });
}
