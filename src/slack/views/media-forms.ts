import { ids } from '../../blocks/ids.js';
import type { LibraryQuery } from '../../blocks/media.js';
import { buildResultView, buildWorkingView } from '../../blocks/modal.js';
import { md } from '../../blocks/mrkdwn.js';
import { parseMediaFilters, readMediaEdit, readThreadRef } from '../../domain/media.js';
import type { MediaDeps, ViewSubmission } from '../deps.js';
import { mediaFormMetadata, readJson, staleValue } from '../input/payloads.js';
import { viewState } from '../input/view-state.js';
import { libraryTitle, loadLibrary, shareMediaFile } from '../openers/media-library-view.js';
import { submitThenWork } from '../openers/working-modal.js';
import { updateView } from '../replies/reply-error.js';
import { workingText } from '../replies/working-notice.js';
import { afterAck, requestLog } from '../runtime/after-ack.js';
import type { Listeners } from '../runtime/listener-tables.js';

/*
 * The media library's forms (pushed over the library): Filter, Edit, Share. Input problems
 * are inline errors (nothing is sent); the rest runs after the ack and is told in the modal.
 */

/** Filter: the same words as `/conference media …`; the library shows the first page of the result. */
export const handleMediaFilterForm =
  (deps: MediaDeps) =>
  async ({ ack, body, view, client }: ViewSubmission): Promise<void> => {
    const text = viewState(view.state.values).str(ids.mediaFilter.filters) ?? '';
    const parsed = parseMediaFilters(text);
    if (!parsed.ok) {
      await ack({ response_action: 'errors', errors: { [ids.mediaFilter.filters]: parsed.error } });
      return;
    }
    await ack();
    const user = body.user.id;
    const { v } = readJson(mediaFormMetadata, view.private_metadata);
    if (!v) throw staleValue();
    const show = updateView(client, v);
    const log = requestLog(deps.logger, { user, team: body.team?.id, callback: view.callback_id });
    afterAck({ kind: 'modal', show, title: libraryTitle, log }, async () => {
      await show(buildWorkingView(libraryTitle, workingText('Looking up the media', deps.waitMs())));
      await show(await loadLibrary(deps, user, { q: text, o: 0 }));
    });
  };

/** Edit: title, description, location (checked inline); saved, then the library refreshed. */
export const handleMediaEditForm =
  (deps: MediaDeps) =>
  async (submission: ViewSubmission): Promise<void> => {
    const { ack, view, client } = submission;
    const { str } = viewState(view.state.values);
    const e = ids.mediaEdit;
    // An empty title keeps the one there (a media needs a name); an empty description clears it.
    const read = readMediaEdit({
      title: str(e.title),
      description: str(e.description) ?? '',
      lat: str(e.lat),
      lng: str(e.lng),
    });
    if (!read.ok) {
      await ack({ response_action: 'errors', errors: read.errors });
      return;
    }
    const title = 'Edit media';
    const working = workingText('Saving the media', deps.waitMs());
    await submitThenWork(submission, { title, working, logger: deps.logger }, async ({ user, show, log }) => {
      const { m, v, q } = readJson(mediaFormMetadata, view.private_metadata);
      if (!m) throw new Error('media edit form without a media id');
      const saved = await deps.media.edit(user, m, read.values);
      await show(
        buildResultView(title, md`Saved “${saved.title || saved.filename || `media ${saved.id}`}”.`),
      );
      await reloadLibrary(deps, client, v, user, q).catch((error: unknown) =>
        log.warn({ err: error }, 'could not refresh the media library'),
      );
    });
  };

/** Share: a channel and an optional thread; the file streamed there, or the link past Slack's limit. */
export const handleMediaShareForm =
  (deps: MediaDeps) =>
  async (submission: ViewSubmission): Promise<void> => {
    const { ack, view, client } = submission;
    const { conversation, str } = viewState(view.state.values);
    const s = ids.mediaShare;
    const channel = conversation(s.channel);
    const thread = readThreadRef(str(s.thread));
    if (!channel) {
      await ack({ response_action: 'errors', errors: { [s.channel]: 'Pick the channel to share it in.' } });
      return;
    }
    if (!thread.ok) {
      await ack({ response_action: 'errors', errors: { [s.thread]: thread.error } });
      return;
    }
    if (thread.channel && thread.channel !== channel) {
      await ack({
        response_action: 'errors',
        errors: { [s.thread]: 'This message is in another channel: pick that channel, or another message.' },
      });
      return;
    }
    const title = 'Share media';
    const working = workingText('Sending the file to Slack', deps.waitMs());
    await submitThenWork(
      submission,
      { title, working, logger: deps.logger, channel },
      async ({ user, show }) => {
        const { m } = readJson(mediaFormMetadata, view.private_metadata);
        if (!m) throw new Error('media share form without a media id');
        const source = await deps.media.shareSource(user, m);
        const { message } = await shareMediaFile(client, source, {
          user,
          channel,
          threadTs: thread.ts,
          limit: deps.media.maxUploadBytes,
        });
        await show(buildResultView(title, message));
      },
    );
  };

/** The library beneath a form, refreshed with the query it showed. */
async function reloadLibrary(
  deps: MediaDeps,
  client: ViewSubmission['client'],
  viewId: string | undefined,
  user: string,
  q: LibraryQuery | undefined,
) {
  if (q && viewId) await updateView(client, viewId)(await loadLibrary(deps, user, q));
}

/** Registers the three forms. */
export function registerMediaForms(app: Listeners, deps: MediaDeps): void {
  app.view(ids.views.mediaFilter, handleMediaFilterForm(deps));
  app.view(ids.views.mediaEdit, handleMediaEditForm(deps));
  app.view(ids.views.mediaShare, handleMediaShareForm(deps));
}
