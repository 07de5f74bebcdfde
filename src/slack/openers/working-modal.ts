import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { buildWorkingView } from '../../blocks/modal.js';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import type { Logger } from '../../observability/logger.js';
import { afterAck } from '../runtime/after-ack.js';

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
  o: { triggerId: string; title: string; working: Mrkdwn; log: Logger; channel?: string | undefined },
  load: () => Promise<ModalView>,
): Promise<void> {
  const opened = await client.views.open({
    trigger_id: o.triggerId,
    view: buildWorkingView(o.title, o.working),
  });
  const viewId = opened.view?.id;
  if (!viewId) return;
  const show = (view: ModalView) => client.views.update({ view_id: viewId, view });
  afterAck({ kind: 'modal', show, title: o.title, log: o.log, channel: o.channel }, async () =>
    show(await load()),
  );
}

/**
 * Pushes a modal over the one clicked in at once (a trigger lasts 3 s), then shows what `load` builds
 * in its place; what `load` throws is told in the pushed modal.
 */
export async function pushThenLoad(
  client: WebClient,
  o: { triggerId: string; title: string; working: Mrkdwn; log: Logger },
  load: () => Promise<ModalView>,
): Promise<void> {
  const pushed = await client.views.push({
    trigger_id: o.triggerId,
    view: buildWorkingView(o.title, o.working),
  });
  const viewId = pushed.view?.id;
  if (!viewId) return;
  const show = (view: ModalView) => client.views.update({ view_id: viewId, view });
  afterAck({ kind: 'modal', show, title: o.title, log: o.log }, async () => show(await load()));
}
