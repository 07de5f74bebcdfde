import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { WebClient } from '@slack/web-api';
import { request } from 'undici';
import type { MrkdwnText } from '../blocks/mrkdwn.js';
import { type Phrase, phrase } from '../blocks/text.js';
import type { Download } from '../platform/client.js';
import { ConfdeskError } from '../services/errors.js';
import { discard } from '../util/streams.js';

/**
 * Where an upload goes: a channel, in a thread of it when `threadTs` is given; no channel keeps the
 * file the bot's own (no file message), for a message's image block to show (the digest's chart).
 */
export interface UploadTarget {
  channel: string | undefined;
  threadTs?: string | undefined;
  filename: string;
  title: string;
  comment?: MrkdwnText | undefined;
}

/**
 * How long the POST to Slack's upload URL may go without a byte moving (none sent, no answer)
 * before it is given up: a stalled Slack must not hold the platform's download and the person's
 * "Working…" for undici's default five minutes. Longer than the platform's own body timeout (30 s
 * unless PLATFORM_BODY_TIMEOUT_MS says otherwise), so a platform that stops sending is told as the
 * platform's failure. Tests lower it.
 */
export const uploadLimits = {
  idleMs: 60_000,
  /** Where `spoolUnsized` writes ('': the system's temporary folder); tests give it a folder of their own. */
  spoolDir: '',
};

/** `uploadFile` into a thread (the ticket cards' files and exports). */
export const uploadToThread = (
  client: WebClient,
  file: Download,
  target: UploadTarget & { threadTs: string },
  knownLength?: number,
) => uploadFile(client, file, target, knownLength);

/**
 * Streams a platform download into a Slack channel or thread with the files upload v2 flow
 * (files.getUploadURLExternal → upload → files.completeUploadExternal), never holding the whole file
 * in memory: the platform's body is piped into the upload POST as it arrives.
 * https://api.slack.com/messaging/files#upload
 *
 * The download is this function's from the call on: read whole, or released (destroyed, its errors
 * heard) whatever stops it. Nothing is posted unless every byte reached Slack: a failure on either
 * side throws a `ConfdeskError` that says which side failed, before `files.completeUploadExternal`.
 */
export async function uploadFile(
  client: WebClient,
  file: Download,
  target: UploadTarget,
  knownLength?: number,
): Promise<{ fileId: string }> {
  const download = file.body;
  // The platform's side failing, told apart from Slack's: its first error, even one from before
  // this call (kept by the stream as `errored`).
  let broke: unknown = download.errored ?? undefined;
  download.on('error', (error) => {
    broke ??= error;
  });
  try {
    const length = file.contentLength ?? knownLength;
    if (!length) throw new ConfdeskError('unknown_size', phrase('upload.unknownSize'));
    const filename = file.filename ?? target.filename;
    const slot = await client.files.getUploadURLExternal({ filename, length });
    if (broke) throw platformFailed(broke);
    await send(slot.upload_url as string, download, length, file.contentType, () => broke);
    await client.files.completeUploadExternal({
      files: [{ id: slot.file_id as string, title: target.title }],
      ...(target.channel ? { channel_id: target.channel } : {}),
      ...(target.threadTs ? { thread_ts: target.threadTs } : {}),
      ...(target.comment ? { initial_comment: target.comment } : {}),
    } as Parameters<WebClient['files']['completeUploadExternal']>[0]);
    return { fileId: slot.file_id as string };
  } finally {
    // A refusal or a failure leaves the download unread: its connection is released here.
    if (!download.readableEnded) discard(download);
  }
}

/**
 * A download the platform sent without Content-Length, which Slack's upload needs before the first
 * byte (the ticket's media archive has no record to give a size): written to a temporary file as
 * it arrives, counted, and handed back as a download of known length read from that file. Past
 * `maxBytes` it stops at once (the download released, the file removed) and says how far it got.
 * A download that breaks or stalls throws the same sentence as in `uploadFile`. The caller runs
 * `done()` once the file is sent on (or not): the temporary file goes.
 */
export async function spoolUnsized(
  file: Download,
  maxBytes: number,
): Promise<{ kind: 'file'; file: Download; done: () => Promise<void> } | { kind: 'too-big'; over: number }> {
  const dir = await mkdtemp(join(uploadLimits.spoolDir || tmpdir(), 'confdesk-spool-'));
  const done = () => rm(dir, { recursive: true, force: true });
  const path = join(dir, 'download');
  let size = 0;
  const tooBig = new Error('past the limit');
  const count = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      size += chunk.length;
      next(size > maxBytes ? tooBig : null, chunk);
    },
  });
  try {
    await pipeline(file.body, count, createWriteStream(path));
  } catch (error) {
    discard(file.body);
    await done();
    if (error === tooBig) return { kind: 'too-big', over: maxBytes };
    throw platformFailed(error);
  }
  return {
    kind: 'file',
    file: { ...file, body: createReadStream(path), contentLength: size },
    done,
  };
}

/**
 * The POST to the upload URL, fed from the download as it arrives. The upload reads a stream of its
 * own (`feed`): when Slack fails, undici destroys that one, not the download, so the download's
 * errors are always the platform's.
 */
async function send(
  url: string,
  download: Readable,
  length: number,
  contentType: string | undefined,
  broke: () => unknown,
): Promise<void> {
  const feed = new PassThrough();
  // Its failures are read from the request's rejection; after the request, nobody else listens.
  feed.on('error', () => undefined);
  download.on('error', (error) => feed.destroy(error));
  download.pipe(feed);
  let status: number;
  try {
    const res = await request(url, {
      method: 'POST',
      body: feed,
      headers: {
        'content-type': contentType ?? 'application/octet-stream',
        'content-length': String(length),
      },
      headersTimeout: uploadLimits.idleMs,
      bodyTimeout: uploadLimits.idleMs,
    });
    status = res.statusCode;
    await res.body.dump();
  } catch (error) {
    if (broke()) throw platformFailed(broke());
    if (codeOf(error) === 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH')
      throw new ConfdeskError('size_mismatch', phrase('upload.sizeMismatch', { length: String(length) }));
    throw slackFailed(
      timeoutCodes.has(codeOf(error) ?? '') ? phrase('upload.slackStopped') : phrase('upload.slackBroke'),
    );
  }
  if (status >= 300) throw slackFailed(phrase('upload.slackStatus', { status: String(status) }));
}

const timeoutCodes = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const codeOf = (error: unknown) => (error as { code?: string } | undefined)?.code;

const platformFailed = (error: unknown) =>
  new ConfdeskError(
    'download_failed',
    timeoutCodes.has(codeOf(error) ?? '') ? phrase('upload.platformStopped') : phrase('upload.platformBroke'),
  );

/** Slack's side failing: its sentence says what broke and that nothing was posted. */
const slackFailed = (said: Phrase) => new ConfdeskError('upload_failed', said);
