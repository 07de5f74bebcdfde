import type { App, BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import { buildDeletedCard } from '../../blocks/conference-card.js';
import type { ConferenceFormValues } from '../../blocks/conference-form.js';
import { buildConferenceForm, buildResultView, buildWorkingView } from '../../blocks/conference-form.js';
import {
  buildConferenceDetails,
  buildConferenceList,
  buildMediaList,
  type ListQuery,
} from '../../blocks/conference-list.js';
import { afterAck } from '../after-ack.js';
import { type ConferenceDeps, type FormMetadata, formFromText } from '../conference-flows.js';
import { describeError, workingText } from '../describe-error.js';
import { ids } from '../ids.js';

type Button = BlockAction<ButtonAction>;

/** How long the Edit button waits for the permission check before opening a "Working…" modal instead. */
const editDecisionMs = 1_500;

/** Resolves with the promise's outcome if it settles within `ms`, else with undefined. */
async function within<T>(p: Promise<T>, ms: number): Promise<{ value: T } | { error: unknown } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([
      p.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const ephemeral = (text: string) => ({ response_type: 'ephemeral' as const, replace_original: false, text });

/**
 * The conference card's buttons and the list's: Join (a link; acked only), Edit (permission, then the
 * prefilled form; the save updates the card in place), Delete (after Slack's confirmation dialog),
 * Recordings & snapshots, Show and the list's paging. Every refusal or failure is an ephemeral reply.
 */
export function registerConferenceActions(app: App, deps: ConferenceDeps): void {
  const fail = (respond: RespondFn, error: unknown, channel?: string) =>
    respond(ephemeral(describeError(error, deps.logger, channel))).catch((e: unknown) =>
      deps.logger.warn({ err: e }, 'could not answer the button'),
    );

  app.action(ids.actions.conferenceJoin, async ({ ack }) => {
    await ack();
  });

  app.action<Button>(ids.actions.conferenceDelete, async ({ ack, body, action, respond }) => {
    await ack();
    await afterAck();
    try {
      const c = await deps.conferences.remove(body.user.id, action.value ?? '');
      await respond({ replace_original: true, ...buildDeletedCard(c, body.user.id) });
    } catch (error) {
      await fail(respond, error, body.channel?.id);
    }
  });

  app.action<Button>(ids.actions.conferenceMedia, async ({ ack, body, action, respond }) => {
    await ack();
    await afterAck();
    const wait = deps.conferences.waitMs();
    try {
      if (wait >= 3_000)
        await respond(ephemeral(workingText('Looking up the recordings and snapshots', wait)));
      const { conference, items, total } = await deps.conferences.medias(body.user.id, action.value ?? '');
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        ...buildMediaList(conference, items, total),
      });
    } catch (error) {
      await fail(respond, error, body.channel?.id);
    }
  });

  app.action<Button>(
    new RegExp(`^${ids.actions.conferenceShow}:`),
    async ({ ack, body, action, respond }) => {
      await ack();
      await afterAck();
      try {
        const c = await deps.conferences.get(action.value ?? '');
        await respond({ response_type: 'ephemeral', replace_original: false, ...buildConferenceDetails(c) });
      } catch (error) {
        await fail(respond, error, body.channel?.id);
      }
    },
  );

  app.action<Button>(
    new RegExp(`^${ids.actions.conferencePage}:`),
    async ({ ack, body, action, respond }) => {
      await ack();
      await afterAck();
      try {
        const q = JSON.parse(action.value ?? '{}') as ListQuery;
        const page = await deps.conferences.list(body.user.id, q);
        await respond({
          response_type: 'ephemeral',
          replace_original: true,
          ...buildConferenceList(q, page),
        });
      } catch (error) {
        await fail(respond, error, body.channel?.id);
      }
    },
  );

  app.action<Button>(ids.actions.conferenceOpenForm, async ({ ack, body, action, client, respond }) => {
    await ack();
    await afterAck();
    try {
      const view = await formFromText(deps, body.user.id, body.channel?.id, action.value ?? '');
      await client.views.open({ trigger_id: body.trigger_id, view: view as never });
    } catch (error) {
      await fail(respond, error, body.channel?.id);
    }
  });

  app.action<Button>(ids.actions.conferenceEdit, async ({ ack, body, action, client, respond }) => {
    await ack();
    await afterAck();
    const user = body.user.id;
    const conferenceId = action.value ?? '';
    const container = body.container as { is_ephemeral?: boolean; channel_id?: string; message_ts?: string };
    const meta: FormMetadata =
      container.is_ephemeral || !container.channel_id || !container.message_ts
        ? { mode: 'edit', conferenceId, responseUrl: body.response_url }
        : { mode: 'edit', conferenceId, channel: container.channel_id, ts: container.message_ts };
    const form = ({ values, hasPassword }: { values: ConferenceFormValues; hasPassword: boolean }) =>
      buildConferenceForm({ mode: 'edit', values, metadata: JSON.stringify(meta), hasPassword });
    // The trigger_id lasts 3 s: a refusal known quickly is an ephemeral reply; a slow platform gets a
    // "Working…" modal at once, then the form (or the refusal) in it.
    const loading = deps.conferences.forEditing(user, conferenceId);
    const early = await within(loading, editDecisionMs);
    try {
      if (early && 'error' in early) return void (await fail(respond, early.error, container.channel_id));
      if (early) {
        await client.views.open({ trigger_id: body.trigger_id, view: form(early.value) as never });
        return;
      }
      const opened = await client.views.open({
        trigger_id: body.trigger_id,
        view: buildWorkingView(
          'Edit conference',
          workingText('Loading the conference', deps.conferences.waitMs()),
        ) as never,
      });
      const next = await loading.then(form, (error: unknown) =>
        buildResultView('Edit conference', describeError(error, deps.logger, container.channel_id)),
      );
      await client.views.update({ view_id: opened.view?.id as string, view: next as never });
    } catch (error) {
      await fail(respond, error, container.channel_id);
    }
  });
}
