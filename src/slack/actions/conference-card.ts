import { buildDeletedCard } from '../../blocks/conference-card.js';
import { buildConferenceForm } from '../../blocks/conference-form.js';
import {
  buildConferenceDetails,
  buildConferenceList,
  buildJoinReply,
  buildMediaList,
} from '../../blocks/conference-list.js';
import { ids } from '../../blocks/ids.js';
import { buildWorkingView } from '../../blocks/modal.js';
import type { ConferenceFormValues } from '../../domain/conference.js';
import { within } from '../../util/within.js';
import type { ConferenceDeps } from '../deps.js';
import {
  conferencePage,
  type FormMetadata,
  idValue,
  participantsPage,
  readJson,
  readValue,
} from '../input/payloads.js';
import { formFromText, gateMs } from '../openers/forms.js';
import { ephemeral } from '../replies/ephemeral.js';
import { replyError, updateView } from '../replies/reply-error.js';
import { workingText } from '../replies/working-notice.js';
import type { ActionRoutes, ClickHandler } from '../runtime/action-routes.js';

/**
 * The conference card's buttons and the list's: Join (a link; acked only), Edit (permission, then the
 * prefilled form; the save updates the card in place), Delete (after Slack's confirmation dialog),
 * Recordings & snapshots, Show and the list's paging. Every refusal or failure is an ephemeral reply.
 */
export function handleConferenceActions(
  deps: ConferenceDeps,
): Record<string, { run: ClickHandler; working: string | undefined }> {
  const handlers: Record<string, { run: ClickHandler; working: string | undefined }> = {};
  // Doors that open a modal have 3 s (the trigger) and say it in the modal; Media says it itself.
  const onClick = (actionId: string, run: ClickHandler, working: string | undefined = 'Working') => {
    handlers[actionId] = { run, working };
  };

  onClick(ids.actions.conferenceDelete, async ({ user, value, respond }) => {
    const c = await deps.conferences.remove(user, readValue(idValue, value));
    await respond({ replace_original: true, ...buildDeletedCard(c, user) });
    deps.publisher.conferenceChanged(c);
  });

  onClick(
    ids.actions.conferenceMedia,
    async ({ user, value, respond }) => {
      const wait = deps.conferences.waitMs();
      if (wait >= 3_000)
        await respond(ephemeral(workingText('Looking up the recordings and snapshots', wait)));
      const { conference, items, total } = await deps.conferences.medias(user, readValue(idValue, value));
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        ...buildMediaList(conference, items, total),
      });
    },
    undefined,
  );

  onClick(ids.actions.conferenceShow, async ({ user, value, respond }) => {
    const c = await deps.conferences.see(user, readValue(idValue, value));
    await respond({ response_type: 'ephemeral', replace_original: false, ...buildConferenceDetails(c) });
  });

  onClick(ids.actions.conferenceShowPage, async ({ user, value, respond }) => {
    const { id, page } = readJson(participantsPage, value);
    const c = await deps.conferences.see(user, id);
    await respond({ response_type: 'ephemeral', replace_original: true, ...buildConferenceDetails(c, page) });
  });

  // Join: the link is given privately, on a click, to those the policy lets join.
  onClick(ids.actions.conferenceJoin, async ({ user, value, respond }) => {
    const { conference, url } = await deps.conferences.joinLink(user, readValue(idValue, value));
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      ...buildJoinReply(conference, url),
    });
  });

  onClick(ids.actions.conferencePage, async ({ user, value, respond }) => {
    const q = readJson(conferencePage, value);
    const page = await deps.conferences.list(user, q);
    await respond({ response_type: 'ephemeral', replace_original: true, ...buildConferenceList(q, page) });
  });

  onClick(
    ids.actions.conferenceOpenForm,
    async ({ user, value, channel, client, triggerId }) => {
      const view = await formFromText(deps, user, channel, value);
      await client.views.open({ trigger_id: triggerId, view: view });
    },
    undefined,
  );

  onClick(
    ids.actions.conferenceEdit,
    async ({ user, value, container: at, responseUrl, client, triggerId, log }) => {
      const conferenceId = readValue(idValue, value);
      const meta: FormMetadata =
        at.isEphemeral || !at.channel || !at.ts
          ? { mode: 'edit', conferenceId, responseUrl }
          : { mode: 'edit', conferenceId, channel: at.channel, ts: at.ts };
      const form = ({ values, hasPassword }: { values: ConferenceFormValues; hasPassword: boolean }) =>
        buildConferenceForm({ mode: 'edit', values, metadata: JSON.stringify(meta), hasPassword });
      // The trigger_id lasts 3 s: a refusal known quickly is an ephemeral reply; a slow platform gets a
      // "Working…" modal at once, then the form (or the refusal) in it.
      const loading = deps.conferences.forEditing(user, conferenceId);
      const early = await within(loading, gateMs);
      if (early && 'error' in early) throw early.error;
      if (early) {
        await client.views.open({ trigger_id: triggerId, view: form(early.value) });
        return;
      }
      const opened = await client.views.open({
        trigger_id: triggerId,
        view: buildWorkingView(
          'Edit conference',
          workingText('Loading the conference', deps.conferences.waitMs()),
        ),
      });
      const show = updateView(client, opened.view?.id as string);
      await loading.then(
        (loaded) => show(form(loaded)),
        (error: unknown) =>
          replyError({ kind: 'modal', show, title: 'Edit conference', log, channel: at.channel }, error),
      );
    },
    undefined,
  );
  return handlers;
}

/** Registers every handler of `handleConferenceActions`. */
export function registerConferenceActions(routes: ActionRoutes, deps: ConferenceDeps): void {
  for (const [actionId, { run, working }] of Object.entries(handleConferenceActions(deps)))
    routes.on(actionId, run, working ? { working } : {});
}
