import { ids } from '../../blocks/ids.js';
import type { LibraryQuery } from '../../blocks/media.js';
import { buildResultView, buildWorkingView } from '../../blocks/modal.js';
import { t, tPlain } from '../../blocks/text.js';
import { parseMediaFilters, readMediaEdit, readThreadRef } from '../../domain/media.js';
import type { Locale } from '../../i18n/locale.js';
import type { MediaDeps, ViewSubmission } from '../deps.js';
import { mediaFormMetadata, readJson, staleValue } from '../input/payloads.js';
import { viewState } from '../input/view-state.js';
import { libraryTitle, loadLibrary, lookingUp, shareMediaFile } from '../openers/media-library-view.js';
import { submitThenWork } from '../openers/working-modal.js';
import { updateView } from '../replies/reply-error.js';
import { workingText } from '../replies/working-notice.js';
import { afterAck, requestLog } from '../runtime/after-ack.js';
import type { Listeners } from '../runtime/listener-tables.js';

/*
 * The media library's forms (pushed over the library): Filter, Edit, Share. Input problems
 * are inline errors (nothing is sent); the rest runs after the ack and is told in the modal, in the
 * person's language (asked before the ack: cached since the library opened, at most a second).
 */

/** Filter: the same words as `/conference media …`; the library shows the first page of the result. */
export const handleMediaFilterForm =
  (deps: MediaDeps) =>
  async ({ ack, body, view, client }: ViewSubmission): Promise<void> => {
    const text = viewState(view.state.values).str(ids.mediaFilter.filters) ?? '';
    const parsed = parseMediaFilters(text);
    const user = body.user.id;
    const locale = await deps.locales.person(user);
    if (!parsed.ok) {
      const error = tPlain(locale, parsed.problem.key, parsed.problem.values);
      await ack({ response_action: 'errors', errors: { [ids.mediaFilter.filters]: error } });
      return;
    }
    await ack();
    const { v } = readJson(mediaFormMetadata, view.private_metadata);
    if (!v) throw staleValue();
    const show = updateView(client, v);
    const log = requestLog(deps.logger, { user, team: body.team?.id, callback: view.callback_id });
    const title = libraryTitle(locale);
    afterAck({ kind: 'modal', show, title, log, locale }, async () => {
      await show(buildWorkingView(locale, title, lookingUp(deps, locale)));
      await show(await loadLibrary(deps, locale, user, { q: text, o: 0 }));
    });
  };

/** Edit: title, description, location (checked inline); saved, then the library refreshed. */
export const handleMediaEditForm =
  (deps: MediaDeps) =>
  async (submission: ViewSubmission): Promise<void> => {
    const { ack, view, client, body } = submission;
    const { str } = viewState(view.state.values);
    const e = ids.mediaEdit;
    // An empty title keeps the one there (a media needs a name); an empty description clears it.
    const read = readMediaEdit({
      title: str(e.title),
      description: str(e.description) ?? '',
      lat: str(e.lat),
      lng: str(e.lng),
    });
    const locale = await deps.locales.person(body.user.id);
    if (!read.ok) {
      const errors = Object.fromEntries(
        Object.entries(read.errors).map(([field, p]) => [field, tPlain(locale, p.key, p.values)]),
      );
      await ack({ response_action: 'errors', errors });
      return;
    }
    const title = tPlain(locale, 'media.edit.title');
    const working = workingText(locale, tPlain(locale, 'media.edit.working'), deps.waitMs());
    await submitThenWork(
      submission,
      { title, working, logger: deps.logger, locale },
      async ({ user, show, log }) => {
        const { m, v, q } = readJson(mediaFormMetadata, view.private_metadata);
        if (!m) throw new Error('media edit form without a media id');
        const saved = await deps.media.edit(user, m, read.values);
        const name =
          saved.title || saved.filename || tPlain(locale, 'media.untitledInSentence', { id: saved.id });
        await show(buildResultView(locale, title, t(locale, 'media.edit.saved', { name })));
        await reloadLibrary(deps, locale, client, v, user, q).catch((error: unknown) =>
          log.warn({ err: error }, 'could not refresh the media library'),
        );
      },
    );
  };

/** Share: a channel and an optional thread; the file streamed there, or the link past Slack's limit. */
export const handleMediaShareForm =
  (deps: MediaDeps) =>
  async (submission: ViewSubmission): Promise<void> => {
    const { ack, view, client, body } = submission;
    const { conversation, str } = viewState(view.state.values);
    const s = ids.mediaShare;
    const locale = await deps.locales.person(body.user.id);
    const channel = conversation(s.channel);
    const thread = readThreadRef(str(s.thread));
    if (!channel) {
      await ack({
        response_action: 'errors',
        errors: { [s.channel]: tPlain(locale, 'media.share.pickChannel') },
      });
      return;
    }
    if (!thread.ok) {
      await ack({
        response_action: 'errors',
        errors: { [s.thread]: tPlain(locale, thread.problem.key, thread.problem.values) },
      });
      return;
    }
    if (thread.channel && thread.channel !== channel) {
      await ack({
        response_action: 'errors',
        errors: { [s.thread]: tPlain(locale, 'media.share.otherChannel') },
      });
      return;
    }
    const title = tPlain(locale, 'media.share.title');
    const working = workingText(locale, tPlain(locale, 'media.share.working'), deps.waitMs());
    await submitThenWork(
      submission,
      { title, working, logger: deps.logger, channel, locale },
      async ({ user, show }) => {
        const { m } = readJson(mediaFormMetadata, view.private_metadata);
        if (!m) throw new Error('media share form without a media id');
        const source = await deps.media.shareSource(user, m);
        const { message } = await shareMediaFile(client, source, {
          user,
          channel,
          threadTs: thread.ts,
          limit: deps.media.maxUploadBytes,
          locale,
          channelLocale: deps.locales.channel,
        });
        await show(buildResultView(locale, title, message));
      },
    );
  };

/** The library beneath a form, refreshed with the query it showed. */
async function reloadLibrary(
  deps: MediaDeps,
  locale: Locale,
  client: ViewSubmission['client'],
  viewId: string | undefined,
  user: string,
  q: LibraryQuery | undefined,
) {
  if (q && viewId) await updateView(client, viewId)(await loadLibrary(deps, locale, user, q));
}

/** Registers the three forms. */
export function registerMediaForms(app: Listeners, deps: MediaDeps): void {
  app.view(ids.views.mediaFilter, handleMediaFilterForm(deps));
  app.view(ids.views.mediaEdit, handleMediaEditForm(deps));
  app.view(ids.views.mediaShare, handleMediaShareForm(deps));
}
