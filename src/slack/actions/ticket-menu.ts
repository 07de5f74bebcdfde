import { button, section } from '../../blocks/conference-card.js';
import { ids } from '../../blocks/ids.js';
import { limits } from '../../blocks/limits.js';
import { buildWorkingView } from '../../blocks/modal.js';
import { buildTicketMediaList, buildTimeline } from '../../blocks/ticket-card.js';
import { buildTicketEditForm, buildTicketExportForm } from '../../blocks/ticket-form.js';
import { editableFields } from '../../domain/ticket.js';
import { workingText } from '../describe-error.js';
import {
  type CardPlace,
  cardPlace,
  mediaPost,
  readJson,
  readValue,
  staleValue,
  ticketMenuValue,
} from '../payloads.js';
import { replyError, updateView } from '../reply-error.js';
import type { ActionRoutes, Click } from '../route.js';
import { uploadToThread } from '../upload-to-thread.js';
import { type TicketDeps, ticketOfCard } from './ticket-card.js';

/**
 * A card place read from a value or a form: its channel and message are kept only when the store
 * says the bot posted this ticket's card there, so a forged place cannot make the bot edit or post
 * under another message.
 */
export async function trustedPlace(deps: Pick<TicketDeps, 'store'>, place: CardPlace): Promise<CardPlace> {
  if (!place.channel || !place.ts) return { ticketId: place.ticketId };
  const card = await deps.store.at(place.channel, place.ts);
  return card?.ticketId === place.ticketId ? place : { ticketId: place.ticketId };
}

/** A menu entry's handler: the ticket (as the card's record says) and where its card lives. */
type MenuEntry = (c: Click, place: CardPlace) => Promise<unknown>;

/** Timeline: posted in the card's thread (privately when the card has none). */
const handleTimeline =
  (deps: TicketDeps): MenuEntry =>
  async ({ user, client, respond }, place) => {
    const { ticket, events } = await deps.tickets.timeline(user, place.ticketId);
    const timeline = buildTimeline(ticket, events);
    if (place.channel && place.ts)
      await client.chat.postMessage({ channel: place.channel, thread_ts: place.ts, ...timeline });
    else await respond({ response_type: 'ephemeral', replace_original: false, ...timeline });
  };

/** Media: listed privately, each file postable into the thread. */
const handleMedia =
  (deps: TicketDeps): MenuEntry =>
  async ({ user, respond }, place) => {
    const { ticket, items, total } = await deps.tickets.medias(user, place.ticketId);
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
  };

/** Export: the format and timeline form (its submission is `views/ticket-export.ts`). */
const handleExport =
  (deps: TicketDeps): MenuEntry =>
  async ({ user, client, triggerId }, place) => {
    await deps.tickets.forAction(user, place.ticketId, 'ticket.export');
    await client.views.open({
      trigger_id: triggerId,
      view: buildTicketExportForm(JSON.stringify(place)),
    });
  };

/** Delete: a private prompt whose button asks for confirmation. */
const handleDelete =
  (deps: TicketDeps): MenuEntry =>
  async ({ user, respond }, place) => {
    const ticket = await deps.tickets.forAction(user, place.ticketId, 'ticket.delete');
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
  };

/**
 * Edit: the trigger lasts 3 s, so a "Loading…" modal opens at once and the form fills it when the
 * ticket and the lists are read (its submission is `views/ticket-edit.ts`). A refusal is shown in
 * the modal and said beside the card.
 */
const handleEdit =
  (deps: TicketDeps & { waitMs: () => number }): MenuEntry =>
  async ({ user, client, triggerId, respond, log, container }, place) => {
    const opened = await client.views.open({
      trigger_id: triggerId,
      view: buildWorkingView('Edit ticket', workingText('Loading the ticket', deps.waitMs())),
    });
    const show = updateView(client, opened.view?.id as string);
    await Promise.all([
      deps.tickets.forAction(user, place.ticketId, 'ticket.edit'),
      deps.tickets.formChoices(user),
    ]).then(
      ([ticket, choices]) =>
        show(
          buildTicketEditForm({ values: editableFields(ticket), choices, metadata: JSON.stringify(place) }),
        ),
      (error: unknown) =>
        replyError(
          { kind: 'modal', show, title: 'Edit ticket', tell: respond, log, channel: container.channel },
          error,
        ),
    );
  };

/**
 * The ticket card's menu: Timeline, Media, Export, Edit and Delete, each a small handler above. Each
 * checks the person may act on the ticket; the delete prompt's button and the media list's buttons
 * are answered here too.
 */
export function registerTicketMenu(routes: ActionRoutes, deps: TicketDeps & { waitMs: () => number }): void {
  const entries: Record<ReturnType<typeof readValue<typeof ticketMenuValue>>['kind'], MenuEntry> = {
    timeline: handleTimeline(deps),
    media: handleMedia(deps),
    export: handleExport(deps),
    delete: handleDelete(deps),
    edit: handleEdit(deps),
  };
  routes.on(ids.actions.ticketMenu, async (c) => {
    const { kind, ticketId: named } = readValue(ticketMenuValue, c.value);
    const ticketId = await ticketOfCard(deps, c.container, named);
    await entries[kind](c, { ticketId, channel: c.container.channel, ts: c.container.ts });
  });

  routes.on(
    ids.actions.ticketDelete,
    async ({ user, value, respond }) => {
      const place = await trustedPlace(deps, readJson(cardPlace, value));
      const ticket = await deps.tickets.remove(user, place.ticketId);
      await respond({
        replace_original: true,
        text: `Deleted ${ticket.reference ?? `ticket ${ticket.id}`}.`,
      });
      // Every card of the ticket says so, and each card's thread says who.
      await deps.publisher.ticketChanged({ kind: 'deleted', ticket }, user);
    },
    { working: 'Deleting the ticket' },
  );

  routes.on(
    ids.actions.ticketMediaPost,
    async ({ user, value, client }) => {
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
    },
    { working: 'Fetching the file' },
  );
}
