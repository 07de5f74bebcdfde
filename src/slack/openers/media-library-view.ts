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
import { tPlain } from '../../blocks/text.js';
import type { Locale } from '../../i18n/locale.js';
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

/** The library's modal title (also the title of its failures), in the person's language. */
export const libraryTitle = (locale: Locale) => tPlain(locale, 'media.library.title');

/** "Looking up the media…" (with the rate budget's wait), in the person's language. */
export const lookingUp = (deps: Pick<MediaDeps, 'waitMs'>, locale: Locale) =>
  workingText(locale, tPlain(locale, 'media.working'), deps.waitMs());

/** The library view for a query (`notice`: a line on top, e.g. what was just deleted), in `locale`. */
export async function loadLibrary(
  deps: MediaDeps,
  locale: Locale,
  user: string,
  q: LibraryQuery,
  notice?: Mrkdwn,
): Promise<ModalView> {
  const page = await deps.media.list(user, q.q, q.o);
  return buildMediaLibrary(locale, q, page, notice);
}

/**
 * Opens the library modal for `user` with the filters typed (`/conference media …`, or none from
 * the App Home's button `ids.actions.mediaOpen`): a working view at once, the first page in place.
 * A bad filter or a refusal is told in the modal.
 */
export async function openMediaLibrary(
  deps: MediaDeps,
  o: { user: string; triggerId: string; client: WebClient; log: Logger; text?: string; channel?: string },
): Promise<void> {
  // The person's language (cached; at most a second) before the trigger's 3 s are spent on the open.
  const locale = await deps.locales.person(o.user);
  return openModalThenLoad(
    o.client,
    {
      triggerId: o.triggerId,
      title: libraryTitle(locale),
      working: lookingUp(deps, locale),
      log: o.log,
      channel: o.channel,
      locale,
    },
    () => loadLibrary(deps, locale, o.user, { q: (o.text ?? '').trim().slice(0, 1_000), o: 0 }),
  );
}

/**
 * Sends a media file to Slack for `user`: streamed from the platform into the upload flow, into the
 * channel or one of its threads; past Slack's file size limit, nothing is uploaded and the sentence
 * says so with the link to fetch it from. Answers what to tell the person, in their `locale`; the
 * upload's default comment is in the channel's (`channelLocale`).
 */
export async function shareMediaFile(
  client: WebClient,
  source: MediaShareSource,
  target: {
    user: string;
    channel: string;
    threadTs?: string | undefined;
    limit: number;
    /** The person's language: what they are told. */
    locale: Locale;
  } & (
    | {
        /** The upload's comment (default: "<person> shared <title> from the media library"). */
        comment: MrkdwnText;
      }
    | {
        /** The channel's language: the default comment's. */
        channelLocale: Locale;
      }
  ),
): Promise<{ shared: boolean; message: Mrkdwn }> {
  const m = source.media;
  if (source.kind === 'too-big')
    return {
      shared: false,
      message: buildMediaTooBig(target.locale, m, source.size, source.url, target.limit),
    };
  const name = m.filename ?? m.title ?? `media-${m.id}`;
  await uploadFile(
    client,
    source.file,
    {
      channel: target.channel,
      threadTs: target.threadTs,
      filename: name,
      title: m.title || name,
      comment:
        'comment' in target ? target.comment : buildMediaFileComment(target.channelLocale, target.user, m),
    },
    m.size,
  );
  return {
    shared: true,
    message: buildMediaShared(target.locale, channelLink(target.channel), target.threadTs !== undefined),
  };
}
