import type { WebClient } from '@slack/web-api';
import { request } from 'undici';
import { type MrkdwnText, md } from '../blocks/mrkdwn.js';
import type { Download } from '../platform/client.js';
import { ConfdeskError } from '../services/errors.js';

/** Where an upload goes: a channel, in a thread of it when `threadTs` is given. */
export interface UploadTarget {
  channel: string;
  threadTs?: string | undefined;
  filename: string;
  title: string;
  comment?: MrkdwnText | undefined;
}

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
 */
export async function uploadFile(
  client: WebClient,
  file: Download,
  target: UploadTarget,
  knownLength?: number,
): Promise<{ fileId: string }> {
  const length = file.contentLength ?? knownLength;
  if (!length) {
    file.body.destroy();
    throw new ConfdeskError(
      'unknown_size',
      md`The video platform did not say how big this file is, so it cannot be sent to Slack.`,
    );
  }
  const filename = file.filename ?? target.filename;
  const slot = await client.files.getUploadURLExternal({ filename, length });
  const res = await request(slot.upload_url as string, {
    method: 'POST',
    body: file.body,
    headers: {
      'content-type': file.contentType ?? 'application/octet-stream',
      'content-length': String(length),
    },
  });
  await res.body.dump();
  if (res.statusCode >= 300) throw new Error(`Slack's upload URL answered ${res.statusCode}`);
  await client.files.completeUploadExternal({
    files: [{ id: slot.file_id as string, title: target.title }],
    channel_id: target.channel,
    ...(target.threadTs ? { thread_ts: target.threadTs } : {}),
    ...(target.comment ? { initial_comment: target.comment } : {}),
  } as Parameters<WebClient['files']['completeUploadExternal']>[0]);
  return { fileId: slot.file_id as string };
}
