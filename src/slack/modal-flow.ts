import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { buildWorkingView } from '../blocks/modal.js';
import type { Mrkdwn } from '../blocks/mrkdwn.js';
import type { Logger } from '../observability/logger.js';
import { afterAck } from './route.js';

/**
 * Opens a modal at once (a trigger lasts 3 s, the platform may take longer): first a "working" view,
 * with no platform request before it, then the view `load` builds, in place. What `load` throws is
 * told in the modal (`replyError`'s modal surface). Used by the browsers (people, groups, media) that
 * commands and Home buttons open alike.
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
