import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { buildWorkingView } from '../../blocks/modal.js';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import type { ViewSubmission } from '../deps.js';
import { type Surface, updateView } from '../replies/reply-error.js';
import { afterAck, requestLog } from '../runtime/after-ack.js';

/*
 * A modal that shows "working" at once and what the work gives in place: a trigger lasts 3 s and a
 * submission's ack as long, the platform may take longer. What the work throws is told in the modal
 * (`replyError`'s modal surface).
 */

/**
 * Opens a modal at once: first a "working" view, with no platform request before it, then the view
 * `load` builds, in place. Used by the browsers (people, groups, media) that commands and Home
 * buttons open alike.
 */
export async function openModalThenLoad(
  client: WebClient,
  o: {
    triggerId: string;
    title: string;
    working: Mrkdwn;
    log: Logger;
    channel?: string | undefined;
    /** The language a failure is told in (the person's). */
    locale?: Locale | undefined;
  },
  load: () => Promise<ModalView>,
): Promise<void> {
  const opened = await client.views.open({
    trigger_id: o.triggerId,
    view: buildWorkingView(o.locale ?? 'en', o.title, o.working),
  });
  const viewId = opened.view?.id;
  if (!viewId) return;
  const show = (view: ModalView) => client.views.update({ view_id: viewId, view });
  afterAck(
    { kind: 'modal', show, title: o.title, log: o.log, channel: o.channel, locale: o.locale },
    async () => show(await load()),
  );
}

/**
 * Pushes a modal over the one clicked in at once (a trigger lasts 3 s), then shows what `load` builds
 * in its place; what `load` throws is told in the pushed modal.
 */
export async function pushThenLoad(
  client: WebClient,
  o: { triggerId: string; title: string; working: Mrkdwn; log: Logger; locale?: Locale | undefined },
  load: () => Promise<ModalView>,
): Promise<void> {
  const pushed = await client.views.push({
    trigger_id: o.triggerId,
    view: buildWorkingView(o.locale ?? 'en', o.title, o.working),
  });
  const viewId = pushed.view?.id;
  if (!viewId) return;
  const show = (view: ModalView) => client.views.update({ view_id: viewId, view });
  afterAck({ kind: 'modal', show, title: o.title, log: o.log, locale: o.locale }, async () =>
    show(await load()),
  );
}

/** What a submission's work gets: who submitted, the modal to show the outcome in, the request's logger. */
export interface Submitted {
  user: string;
  show: (view: ModalView) => Promise<unknown>;
  log: Logger;
}

/**
 * A submission whose inputs are right: acked with a "working" view in the modal at once, then `work`
 * runs after the ack and shows the outcome in its place. What `work` throws is told in the modal:
 * `again` (usually the form with what was typed and the reason) or the outcome view with the sentence.
 */
export async function submitThenWork(
  { ack, body, view, client }: Pick<ViewSubmission, 'ack' | 'body' | 'view' | 'client'>,
  o: {
    title: string;
    working: Mrkdwn;
    logger: Logger;
    again?: Extract<Surface, { kind: 'modal' }>['again'];
    channel?: string | undefined;
    /** The language a failure is told in (the person's). */
    locale?: Locale | undefined;
  },
  work: (s: Submitted) => Promise<unknown>,
): Promise<void> {
  await ack({ response_action: 'update', view: buildWorkingView(o.locale ?? 'en', o.title, o.working) });
  const user = body.user.id;
  const show = updateView(client, view.id);
  const log = requestLog(o.logger, { user, team: body.team?.id, callback: view.callback_id });
  afterAck(
    {
      kind: 'modal',
      show,
      title: o.title,
      log,
      channel: o.channel,
      locale: o.locale,
      ...(o.again ? { again: o.again } : {}),
    },
    () => work({ user, show, log }),
  );
}
