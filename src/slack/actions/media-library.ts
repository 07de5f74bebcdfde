import type { ModalView } from '@slack/types';
import { ids } from '../../blocks/ids.js';
import {
  buildMediaDeletePrompt,
  buildMediaDetails,
  buildMediaEditForm,
  buildMediaFilterForm,
  buildMediaShareForm,
} from '../../blocks/media.js';
import { buildWorkingView } from '../../blocks/modal.js';
import { t, tPlain } from '../../blocks/text.js';
import type { Locale } from '../../i18n/locale.js';
import type { MediaDeps } from '../deps.js';
import {
  libraryQuery,
  mediaDeleteValue,
  mediaRowValue,
  parseJson,
  platformIdValue,
  readJson,
  readValue,
  staleValue,
} from '../input/payloads.js';
import { libraryTitle, loadLibrary, lookingUp, openMediaLibrary } from '../openers/media-library-view.js';
import { openModalThenLoad } from '../openers/working-modal.js';
import { replyError, updateView } from '../replies/reply-error.js';
import { workingText } from '../replies/working-notice.js';
import type { ActionRoutes, Click, ClickHandler } from '../runtime/action-routes.js';

/*
 * The media library modal's buttons. Each one checks the person's rights again (a value
 * can be forged); the library is updated in place, the detail view and the forms are pushed over it,
 * in the person's language.
 */

/** The library view a click came from (its id); a library button outside a modal was not made by us. */
const libraryOf = (c: Click) => {
  if (!c.view) throw staleValue();
  return c.view;
};

/**
 * Pushes a working view over the library at once (the trigger lasts 3 s), then the view `load` builds,
 * in place; what `load` throws is told in the pushed view, the library stays beneath.
 */
async function pushThenLoad(
  c: Click,
  deps: MediaDeps,
  locale: Locale,
  title: string,
  load: () => Promise<ModalView>,
) {
  const pushed = await c.client.views.push({
    trigger_id: c.triggerId,
    view: buildWorkingView(locale, title, lookingUp(deps, locale)),
  });
  const show = updateView(c.client, pushed.view?.id as string);
  await load().then(show, (error: unknown) =>
    replyError({ kind: 'modal', show, title, log: c.log, channel: c.channel, locale }, error),
  );
}

/** App Home's (or any message's) button: the library, with no filter. */
export const handleMediaOpen =
  (deps: MediaDeps): ClickHandler =>
  ({ user, triggerId, client, log, channel }) =>
    openMediaLibrary(deps, { user, triggerId, client, log, ...(channel ? { channel } : {}) });

/** A row's menu: Show, Edit and Share push their view; Delete asks in the library itself. */
export const handleMediaRow =
  (deps: MediaDeps): ClickHandler =>
  async (c) => {
    const { verb, mediaId } = readValue(mediaRowValue, c.value);
    const library = libraryOf(c);
    const locale = await deps.locales.person(c.user);
    const shown = libraryQuery.safeParse(parseJson(library.privateMetadata));
    const metadata = JSON.stringify({
      m: mediaId,
      v: library.id,
      ...(shown.success ? { q: shown.data } : {}),
    });
    switch (verb) {
      case 'show':
        return pushThenLoad(c, deps, locale, tPlain(locale, 'media.details.title'), async () =>
          buildMediaDetails(locale, await deps.media.forAction(c.user, mediaId, 'media.see')),
        );
      case 'edit':
        return pushThenLoad(c, deps, locale, tPlain(locale, 'media.edit.title'), async () =>
          buildMediaEditForm(locale, await deps.media.forAction(c.user, mediaId, 'media.edit'), metadata),
        );
      case 'share':
        return pushThenLoad(c, deps, locale, tPlain(locale, 'media.share.title'), async () =>
          buildMediaShareForm(locale, await deps.media.forAction(c.user, mediaId, 'media.share'), metadata),
        );
      case 'delete': {
        // A refusal is told in a view pushed over the library, which stays as it was.
        const m = await deps.media
          .forAction(c.user, mediaId, 'media.delete')
          .catch((error: unknown) =>
            pushThenLoad(c, deps, locale, tPlain(locale, 'media.delete.title'), () => Promise.reject(error)),
          );
        if (!m) return;
        const q = shown.success ? shown.data : { q: '', o: 0 };
        return updateView(c.client, library.id)(buildMediaDeletePrompt(locale, m, q));
      }
    }
  };

/** Previous/Next, and the delete prompt's Cancel: the page asked for, in place. */
export const handleMediaPage =
  (deps: MediaDeps): ClickHandler =>
  async (c) => {
    const library = libraryOf(c);
    const q = readJson(libraryQuery, c.value);
    const locale = await deps.locales.person(c.user);
    await updateView(c.client, library.id)(await loadLibrary(deps, locale, c.user, q));
  };

/** The Filter button: the filter form, over the library (no platform call: pushed at once). */
export const handleMediaFilter =
  (deps: Pick<MediaDeps, 'locales'>): ClickHandler =>
  async (c) => {
    const library = libraryOf(c);
    const q = readJson(libraryQuery, c.value);
    const locale = await deps.locales.person(c.user);
    await c.client.views.push({
      trigger_id: c.triggerId,
      view: buildMediaFilterForm(locale, q, JSON.stringify({ v: library.id })),
    });
  };

/** The delete prompt's Delete (after Slack's confirmation): the media goes, the list comes back. */
export const handleMediaDelete =
  (deps: MediaDeps): ClickHandler =>
  async (c) => {
    const library = libraryOf(c);
    const { m: mediaId, ...q } = readJson(mediaDeleteValue, c.value);
    const show = updateView(c.client, library.id);
    const locale = await deps.locales.person(c.user);
    await show(
      buildWorkingView(
        locale,
        libraryTitle(locale),
        workingText(locale, tPlain(locale, 'media.delete.working'), deps.waitMs()),
      ),
    );
    const gone = await deps.media.remove(c.user, mediaId);
    const name = gone.title || gone.filename || tPlain(locale, 'media.untitledInSentence', { id: gone.id });
    await show(await loadLibrary(deps, locale, c.user, q, t(locale, 'media.delete.done', { name })));
  };

/**
 * "Share…" beside a media outside the library (a conference's Recordings & snapshots): the library's
 * share form in a modal of its own, for those who may share it.
 */
export const handleMediaShareOpen =
  (deps: MediaDeps): ClickHandler =>
  async ({ user, value, triggerId, client, log, channel }) => {
    const mediaId = readValue(platformIdValue, value);
    const locale = await deps.locales.person(user);
    return openModalThenLoad(
      client,
      {
        triggerId,
        title: tPlain(locale, 'media.share.title'),
        working: lookingUp(deps, locale),
        log,
        channel,
        locale,
      },
      async () =>
        buildMediaShareForm(
          locale,
          await deps.media.forAction(user, mediaId, 'media.share'),
          JSON.stringify({ m: mediaId }),
          channel,
        ),
    );
  };

/** Registers the library's buttons (`ids.actions.mediaOpen` is the one App Home can carry). */
export function registerMediaLibrary(routes: ActionRoutes, deps: MediaDeps): void {
  routes.on(ids.actions.mediaOpen, handleMediaOpen(deps));
  routes.on(ids.actions.mediaRow, handleMediaRow(deps));
  routes.on(ids.actions.mediaPage, handleMediaPage(deps));
  routes.on(ids.actions.mediaFilter, handleMediaFilter(deps));
  routes.on(ids.actions.mediaDeleteConfirm, handleMediaDelete(deps));
  routes.on(ids.actions.mediaDeleteCancel, handleMediaPage(deps));
  routes.on(ids.actions.mediaShareOpen, handleMediaShareOpen(deps));
}
