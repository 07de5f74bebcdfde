import { ids } from '../../blocks/ids.js';
import { buildWorkingView } from '../../blocks/modal.js';
import { phrase, tPlain } from '../../blocks/text.js';
import { buildTicketMediaList, buildTimeline } from '../../blocks/ticket-card.js';
import { buildTicketEditForm, buildTicketExportForm } from '../../blocks/ticket-form.js';
import {
  buildTicketDeleted,
  buildTicketDeletePrompt,
  buildTicketFileComment,
  buildTicketMediaTooBig,
} from '../../blocks/ticket-prompts.js';
import { mediaItemOf } from '../../domain/media.js';
import { editableFields } from '../../domain/ticket.js';
import type { Locale } from '../../i18n/locale.js';
import { spoolUnsized, uploadToThread } from '../../outbound/upload.js';
import type { MediaDeps, TicketDeps, TicketFormDeps } from '../deps.js';
import { ticketOfCard, trustedPlace } from '../input/card-place.js';
import {
  type CardPlace,
  cardPlace,
  mediaPost,
  readJson,
  readValue,
  staleValue,
  ticketMenuValue,
} from '../input/payloads.js';
import { shareMediaFile } from '../openers/media-library-view.js';
import { ephemeral } from '../replies/ephemeral.js';
import { replyError, updateView } from '../replies/reply-error.js';
import { workingText } from '../replies/working-notice.js';
import type { ActionRoutes, Click, ClickHandler } from '../runtime/action-routes.js';

/** A menu entry's handler: the ticket (as the card's record says) and where its card lives. */
type MenuEntry = (c: Click, place: CardPlace) => Promise<unknown>;

/** Timeline: posted in the card's thread (privately when the card has none). */
export const handleTimeline =
  (deps: TicketDeps): MenuEntry =>
  async ({ user, respond }, place) => {
    const inThread = Boolean(place.channel && place.ts);
    // In the card's thread: the channel's language; privately: the person's.
    const [{ ticket, events }, locale] = await Promise.all([
      deps.tickets.timeline(user, place.ticketId),
      inThread ? deps.locales.channel : deps.locales.person(user),
    ]);
    const timeline = buildTimeline(locale, ticket, events);
    if (place.channel && place.ts)
      await deps.publisher.postInThread({ channel: place.channel, ts: place.ts }, timeline);
    else await respond({ response_type: 'ephemeral', replace_original: false, ...timeline });
  };

/** Media: listed privately, each file postable into the thread. */
export const handleMedia =
  (deps: TicketDeps): MenuEntry =>
  async ({ user, respond }, place) => {
    const [{ ticket, items, total }, locale] = await Promise.all([
      deps.tickets.medias(user, place.ticketId),
      deps.locales.person(user),
    ]);
    const list = items.map(mediaItemOf);
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      ...buildTicketMediaList(locale, ticket, list, total, place),
    });
  };

/** Export: the format and timeline form (its submission is `views/ticket-export.ts`). */
export const handleExport =
  (deps: TicketDeps): MenuEntry =>
  async ({ user, client, triggerId }, place) => {
    const [locale] = await Promise.all([
      deps.locales.person(user),
      deps.tickets.forAction(user, place.ticketId, 'ticket.export'),
    ]);
    await client.views.open({
      trigger_id: triggerId,
      view: buildTicketExportForm(locale, JSON.stringify(place)),
    });
  };

/** Delete: a private prompt whose button asks for confirmation. */
export const handleDelete =
  (deps: TicketDeps): MenuEntry =>
  async ({ user, respond }, place) => {
    const [locale, ticket] = await Promise.all([
      deps.locales.person(user),
      deps.tickets.forAction(user, place.ticketId, 'ticket.delete'),
    ]);
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      ...buildTicketDeletePrompt(locale, ticket, JSON.stringify(place)),
    });
  };

/**
 * Edit: the trigger lasts 3 s, so a "Loading…" modal opens at once and the form fills it when the
 * ticket and the lists are read (its submission is `views/ticket-edit.ts`). A refusal is shown in
 * the modal and said beside the card.
 */
export const handleEdit =
  (deps: TicketFormDeps): MenuEntry =>
  async ({ user, client, triggerId, respond, log, container }, place) => {
    const locale = await deps.locales.person(user);
    const title = tPlain(locale, 'ticketEdit.title');
    const opened = await client.views.open({
      trigger_id: triggerId,
      view: buildWorkingView(
        locale,
        title,
        workingText(locale, tPlain(locale, 'ticketEdit.loading'), deps.waitMs()),
      ),
    });
    const show = updateView(client, opened.view?.id as string);
    await deps.tickets
      .forAction(user, place.ticketId, 'ticket.edit')
      .then(async (ticket) => {
        const values = editableFields(ticket);
        // The prefilled agent's and group's labels: from the directory, in memory once it is loaded.
        const choices = await deps.tickets.formChoices(user, values);
        return show(buildTicketEditForm({ locale, values, choices, metadata: JSON.stringify(place) }));
      })
      .catch((error: unknown) =>
        replyError(
          { kind: 'modal', show, title, tell: respond, log, channel: container.channel, locale },
          error,
        ),
      );
  };

/** The card's menu: its entry's handler, for the ticket the card's record names. */
export const handleTicketMenu = (deps: TicketFormDeps): ClickHandler => {
  const entries: Record<ReturnType<typeof readValue<typeof ticketMenuValue>>['kind'], MenuEntry> = {
    timeline: handleTimeline(deps),
    media: handleMedia(deps),
    export: handleExport(deps),
    delete: handleDelete(deps),
    edit: handleEdit(deps),
  };
  return async (c) => {
    const { kind, ticketId: named } = readValue(ticketMenuValue, c.value);
    const ticketId = await ticketOfCard(deps, c.container, named);
    await entries[kind](c, { ticketId, channel: c.container.channel, ts: c.container.ts });
  };
};

/** The Delete prompt's button: the ticket goes, every card says so, each thread says who. */
export const handleTicketDelete =
  (deps: TicketDeps): ClickHandler =>
  async ({ user, value, respond }) => {
    // The person's language is asked beside the work, never after it.
    const locale = deps.locales.person(user).catch((): Locale => 'en');
    const place = await trustedPlace(deps, readJson(cardPlace, value));
    const ticket = await deps.tickets.remove(user, place.ticketId);
    await respond({ replace_original: true, ...buildTicketDeleted(await locale, ticket) });
    await deps.publisher.ticketChanged({ kind: 'deleted', ticket }, user);
  };

/** A media list's "Post in the thread": the file, streamed from the platform into the card's thread. */
export const handleTicketMediaPost =
  (deps: TicketDeps & Pick<MediaDeps, 'media' | 'locales'>): ClickHandler =>
  async ({ user, value, client, respond }) => {
    const m = readJson(mediaPost, value);
    // The thread must be this ticket's card, as the store knows it.
    const place = await trustedPlace(deps, { ticketId: m.k, channel: m.c, ts: m.t });
    if (!place.ts) throw staleValue();
    // Checked as the ticket's media (`ticket.media`), then shared as the library shares any media.
    const media = await deps.tickets.mediaOf(user, m.k, m.m);
    const { shared, message } = await shareMediaFile(client, await deps.media.sourceOf(media), {
      user,
      channel: m.c,
      threadTs: m.t,
      limit: deps.media.maxUploadBytes,
      locale: await deps.locales.person(user),
      comment: buildTicketFileComment(deps.locales.channel, user, 'shared'),
    });
    if (!shared) await respond(ephemeral(message));
  };

/**
 * A media list's "Post all in the thread (zip)": every media of the ticket in the platform's one
 * archive, streamed into the card's thread as a single file is (an archive without Content-Length
 * counted into a temporary file first); past Slack's file size limit, said privately and nothing
 * uploaded.
 */
export const handleTicketMediaPostAll =
  (deps: TicketDeps & Pick<MediaDeps, 'media'>): ClickHandler =>
  async ({ user, value, client, respond }) => {
    // The thread must be this ticket's card, as the store knows it.
    const place = await trustedPlace(deps, readJson(cardPlace, value));
    if (!place.channel || !place.ts) throw staleValue();
    // The person's language (for a refusal) is asked beside the download, never after it.
    const locale = deps.locales.person(user).catch((): Locale => 'en');
    const limit = deps.media.maxUploadBytes;
    const all = await deps.tickets.allMedia(user, place.ticketId, limit);
    if (all.kind === 'too-big') {
      await respond(ephemeral(buildTicketMediaTooBig(await locale, all.ticket, all.size, limit)));
      return;
    }
    // Without Content-Length (an archive made as it is sent), counted into a temporary file first.
    const spooled = all.file.contentLength === undefined ? await spoolUnsized(all.file, limit) : undefined;
    if (spooled?.kind === 'too-big') {
      await respond(ephemeral(buildTicketMediaTooBig(await locale, all.ticket, spooled.over, limit, true)));
      return;
    }
    try {
      await uploadToThread(client, spooled?.file ?? all.file, {
        channel: place.channel,
        threadTs: place.ts,
        filename: all.filename,
        title: all.filename,
        comment: buildTicketFileComment(deps.locales.channel, user, 'shared all'),
      });
    } finally {
      await spooled?.done();
    }
  };

/**
 * The ticket card's menu: Timeline, Media, Export, Edit and Delete, each a small handler above. Each
 * checks the person may act on the ticket; the delete prompt's button and the media list's buttons
 * are answered here too.
 */
export function registerTicketMenu(
  routes: ActionRoutes,
  deps: TicketFormDeps & Pick<MediaDeps, 'media' | 'locales'>,
): void {
  routes.on(ids.actions.ticketMenu, handleTicketMenu(deps));
  routes.on(ids.actions.ticketDelete, handleTicketDelete(deps), {
    working: phrase('working.deletingTicket'),
  });
  routes.on(ids.actions.ticketMediaPost, handleTicketMediaPost(deps), {
    working: phrase('working.fetchingFile'),
  });
  routes.on(ids.actions.ticketMediaPostAll, handleTicketMediaPostAll(deps), {
    working: phrase('working.fetchingTicketMedia'),
  });
}
