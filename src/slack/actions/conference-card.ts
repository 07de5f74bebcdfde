import type { App, BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import { buildDeletedCard } from '../../blocks/conference-card.js';
import { buildConferenceForm } from '../../blocks/conference-form.js';
import {
  buildConferenceDetails,
  buildConferenceList,
  buildJoinReply,
  buildMediaList,
} from '../../blocks/conference-list.js';
import { ids } from '../../blocks/ids.js';
import { buildResultView, buildWorkingView } from '../../blocks/modal.js';
import type { ConferenceFormValues } from '../../domain/conference.js';
import { within } from '../../util/within.js';
import { detach } from '../after-ack.js';
import { type ConferenceDeps, type FormMetadata, formFromText, gateMs } from '../conference-flows.js';
import { describeError, tellIfSlow, workingText } from '../describe-error.js';
import { conferencePage, idValue, participantsPage, readJson, readValue } from '../payloads.js';

type Button = BlockAction<ButtonAction>;

const ephemeral = (text: string) => ({ response_type: 'ephemeral' as const, replace_original: false, text });

/** What a button handler needs of a click, copied out of Bolt's request so the request can go. */
interface Click {
  user: string;
  value: string;
  channel: string | undefined;
  triggerId: string;
  responseUrl: string;
  container: { is_ephemeral?: boolean; channel_id?: string; message_ts?: string };
  client: App['client'];
  respond: RespondFn;
}

/**
 * The conference card's buttons and the list's: Join (a link; acked only), Edit (permission, then the
 * prefilled form; the save updates the card in place), Delete (after Slack's confirmation dialog),
 * Recordings & snapshots, Show and the list's paging. Every refusal or failure is an ephemeral reply.
 */
export function registerConferenceActions(app: App, deps: ConferenceDeps): void {
  // One Bolt listener for every button below, dispatched by action id (the part before any `:`):
  // Bolt runs each request through every listener's matchers, so fewer listeners, faster acks.
  const routes = new Map<string, (c: Click) => Promise<unknown>>();
  const onClick = (actionId: string, run: (c: Click) => Promise<unknown>) => routes.set(actionId, run);

  onClick(ids.actions.conferenceDelete, async ({ user, value, respond }) => {
    const c = await deps.conferences.remove(user, readValue(idValue, value));
    await respond({ replace_original: true, ...buildDeletedCard(c, user) });
  });

  onClick(ids.actions.conferenceMedia, async ({ user, value, respond }) => {
    const wait = deps.conferences.waitMs();
    if (wait >= 3_000) await respond(ephemeral(workingText('Looking up the recordings and snapshots', wait)));
    const { conference, items, total } = await deps.conferences.medias(user, readValue(idValue, value));
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      ...buildMediaList(conference, items, total),
    });
  });

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

  onClick(ids.actions.conferenceOpenForm, async ({ user, value, channel, client, triggerId }) => {
    const view = await formFromText(deps, user, channel, value);
    await client.views.open({ trigger_id: triggerId, view });
  });

  onClick(ids.actions.conferenceEdit, async ({ user, value, container, responseUrl, client, triggerId }) => {
    const conferenceId = readValue(idValue, value);
    const meta: FormMetadata =
      container.is_ephemeral || !container.channel_id || !container.message_ts
        ? { mode: 'edit', conferenceId, responseUrl }
        : { mode: 'edit', conferenceId, channel: container.channel_id, ts: container.message_ts };
    const form = ({ values, hasPassword }: { values: ConferenceFormValues; hasPassword: boolean }) =>
      buildConferenceForm({ mode: 'edit', values, metadata: JSON.stringify(meta), hasPassword });
    // The trigger_id lasts 3 s: a refusal known quickly is an ephemeral reply; a slow platform gets a
    // "Working…" modal at once, then the form (or the refusal) in it.
    const loading = deps.conferences.forEditing(user, conferenceId);
    const early = await within(loading, gateMs);
    if (early && 'error' in early) throw early.error;
    if (early) return client.views.open({ trigger_id: triggerId, view: form(early.value) });
    const opened = await client.views.open({
      trigger_id: triggerId,
      view: buildWorkingView(
        'Edit conference',
        workingText('Loading the conference', deps.conferences.waitMs()),
      ),
    });
    const next = await loading.then(form, (error: unknown) =>
      buildResultView('Edit conference', describeError(error, deps.logger, container.channel_id)),
    );
    await client.views.update({ view_id: opened.view?.id as string, view: next });
  });

  const opensOrTells = new Set<string>([
    ids.actions.conferenceMedia,
    ids.actions.conferenceOpenForm,
    ids.actions.conferenceEdit,
  ]);
  const handled = [...routes.keys()];
  app.action<Button>(
    new RegExp(`^(${handled.join('|')})(:|$)`),
    async ({ ack, body, action, client, respond }) => {
      await ack();
      const run = routes.get(action.action_id.split(':')[0] ?? '');
      if (!run) return;
      const click: Click = {
        user: body.user.id,
        value: action.value ?? '',
        channel: body.channel?.id,
        triggerId: body.trigger_id,
        responseUrl: body.response_url,
        container: body.container as Click['container'],
        client,
        respond,
      };
      // After the ack, detached; failures become an ephemeral reply.
      detach(deps.logger, async () => {
        // Doors that open a modal have 3 s (the trigger) and say it in the modal; Media says it itself.
        if (!opensOrTells.has(action.action_id.split(':')[0] ?? ''))
          await tellIfSlow(respond, 'Working', deps.conferences.waitMs());
        try {
          await run(click);
        } catch (error) {
          await respond(ephemeral(describeError(error, deps.logger, click.channel)));
        }
      });
    },
  );
}
