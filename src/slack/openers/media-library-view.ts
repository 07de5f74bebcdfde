import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import {
  buildMediaFileComment,
  buildMediaLibrary,
  buildMediaShared,
  buildMediaTooBig,
  type LibraryQuery,
} from '../../blocks/media.js';
import { channelLink, type Mrkdwn, type MrkdwnText } from '../../blocks/mrkdwn.js';
import type { Logger } from '../../observability/logger.js';
import { uploadFile } from '../../outbound/upload.js';
import type { MediaShareSource } from '../../services/media.js';
import type { MediaDeps } from '../deps.js';
import { workingText } from '../replies/working-notice.js';
import { openModalThenLoad } from './working-modal.js';

/*
 * What the media library's command, buttons and forms share (a surface folder never
 * imports a sibling): loading a page into the modal, opening it, and sharing a file.
 */

/** The library's modal title (also the title of its failures). */
export const libraryTitle = 'Media library';

/** The library view for a query (`notice`: a line on top, e.g. what was just deleted). */
export async function loadLibrary(
  deps: MediaDeps,
  user: string,
  q: LibraryQuery,
  notice?: Mrkdwn,
): Promise<ModalView> {
  const page = await deps.media.list(user, q.q, q.o);
  return buildMediaLibrary(q, page, notice);
}

/**
 * Opens the library modal for `user` with the filters typed (`/conference media …`, or none from
 * the App Home's button `ids.actions.mediaOpen`): a working view at once, the first page in place.
 * A bad filter or a refusal is told in the modal.
 */
export function openMediaLibrary(
  deps: MediaDeps,
  o: { user: string; triggerId: string; client: WebClient; log: Logger; text?: string; channel?: string },
): Promise<void> {
  return openModalThenLoad(
    o.client,
    {
      triggerId: o.triggerId,
      title: libraryTitle,
      working: workingText('Looking up the media', deps.waitMs()),
      log: o.log,
      channel: o.channel,
    },
    () => loadLibrary(deps, o.user, { q: (o.text ?? '').trim().slice(0, 1_000), o: 0 }),
  );
}

/**
 * Sends a media file to Slack for `user`: streamed from the platform into the upload flow, into the
 * channel or one of its threads; past Slack's file size limit, nothing is uploaded and the sentence
 * says so with the link to fetch it from. Answers what to tell the person.
 */
export async function shareMediaFile(
  client: WebClient,
  source: MediaShareSource,
  target: {
    user: string;
    channel: string;
    threadTs?: string | undefined;
    limit: number;
    /** The upload's comment (default: "<person> shared <title> from the media library"). */
    comment?: MrkdwnText | undefined;
  },
): Promise<{ shared: boolean; message: Mrkdwn }> {
  const m = source.media;
  if (source.kind === 'too-big')
    return { shared: false, message: buildMediaTooBig(m, source.size, source.url, target.limit) };
  const name = m.filename ?? m.title ?? `media-${m.id}`;
  await uploadFile(
    client,
    source.file,
    {
      channel: target.channel,
      threadTs: target.threadTs,
      filename: name,
      title: m.title || name,
      comment: target.comment ?? buildMediaFileComment(target.user, m),
    },
    m.size,
  );
  return {
    shared: true,
    message: buildMediaShared(channelLink(target.channel), target.threadTs !== undefined),
  };
}
