import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DoubleContext, DoubleState, Methods } from './context.js';
import { safeJson } from './request.js';

/**
 * `files.*`: the files upload v2 flow. `files.getUploadURLExternal` hands out an upload URL (served by
 * `receiveUpload`), `files.completeUploadExternal` posts the uploaded files in a channel.
 */
export function filesMethods({ double, nextTs, nextId }: DoubleContext): Methods {
  return {
    'files.getUploadURLExternal': {
      answer: (a) => {
        const id = nextId('F');
        double.uploads.set(id, { filename: String(a.filename), bytes: undefined });
        return { ok: true, upload_url: `${double.url}/upload/${id}`, file_id: id };
      },
    },
    'files.completeUploadExternal': {
      texts: (a) => ({ text: a.initial_comment }),
      changes: true,
      answer: (a) => {
        const files = (typeof a.files === 'string' ? safeJson(a.files) : a.files) as {
          id: string;
          title?: string;
        }[];
        const missing = files.find((f) => double.uploads.get(f.id)?.size === undefined);
        if (missing) return { ok: false, error: 'file_not_uploaded' };
        for (const f of files) {
          const upload = double.uploads.get(f.id);
          if (upload) upload.completedAt = Date.now();
        }
        if (a.channel_id) {
          double.messages.push({
            channel: String(a.channel_id),
            ts: nextTs(),
            text: a.initial_comment as string | undefined,
            blocks: undefined,
            thread_ts: a.thread_ts as string | undefined,
            metadata: { files: files.map((f) => f.id) },
            user: double.botUserId,
            files: files.map((f) => {
              const upload = double.uploads.get(f.id);
              const name = upload?.filename ?? f.id;
              return {
                id: f.id,
                name,
                ...(f.title ? { title: f.title } : {}),
                size: upload?.size ?? 0,
                mimetype: mimeTypeOf(name),
              };
            }),
          });
        }
        return {
          ok: true,
          files: files.map((f) => ({ id: f.id, title: f.title ?? double.uploads.get(f.id)?.filename })),
        };
      },
    },
  };
}

/**
 * An upload URL's POST (files upload v2), counted as it streams in: the bytes are kept only up to
 * `keepUploadBytes` (tests and the playground read small files back); a bigger file is counted, never
 * buffered, so a 200 MB share costs this double no memory either.
 */
export async function receiveUpload(
  double: DoubleState,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const upload = double.uploads.get(url.pathname.slice('/upload/'.length));
  if (!upload) {
    req.resume();
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"ok":false,"error":"unknown_upload"}');
    return;
  }
  const fault = double.uploadFaults.shift();
  let kept: Buffer[] | undefined = [];
  let size = 0;
  const whole = await new Promise<boolean>((resolve) => {
    const stop = (bytes: number) => fault && fault.kind !== 'status' && bytes >= fault.afterBytes;
    const cut = () => {
      if (fault?.kind === 'reset') req.socket.resetAndDestroy();
      else req.pause();
      resolve(false);
    };
    if (stop(0)) return cut();
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (kept && size <= double.keepUploadBytes) kept.push(chunk);
      else kept = undefined;
      if (stop(size)) cut();
    });
    req.on('end', () => resolve(true));
    // The bot gave up (its own timeout): nothing more comes.
    req.on('close', () => resolve(false));
    req.on('error', () => resolve(false));
  });
  if (!whole) return;
  if (fault?.kind === 'status') {
    res.writeHead(fault.status, { 'content-type': 'text/plain' }).end('upload refused');
    return;
  }
  upload.bytes = kept ? fileBytes(req.headers['content-type'], Buffer.concat(kept)) : undefined;
  upload.size = upload.bytes?.length ?? size;
  res.writeHead(200).end(`OK - ${upload.size}`);
}

const mimeTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
};

/** A file's media type from its name's extension, as Slack guesses it (octet-stream when unknown). */
export function mimeTypeOf(name: string): string {
  return mimeTypes[/\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** The file in an upload body: raw, or the first part of a multipart/form-data body (as WebClient sends). */
function fileBytes(contentType: string | undefined, raw: Buffer): Buffer {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType ?? '');
  if (!contentType?.startsWith('multipart/form-data') || !boundary) return raw;
  const marker = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const start = raw.indexOf(marker);
  const headersEnd = raw.indexOf('\r\n\r\n', start);
  const end = raw.indexOf(marker, headersEnd);
  if (start < 0 || headersEnd < 0 || end < 0) return raw;
  return raw.subarray(headersEnd + 4, end - 2);
}
