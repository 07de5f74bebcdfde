import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackMessage, UploadFault } from '../../src/dev/slack-double.js';
import { installLastResort } from '../../src/observability/last-resort.js';
import { createLogger } from '../../src/observability/logger.js';
import { uploadLimits } from '../../src/outbound/upload.js';
import { zipStream } from '../../src/sim/content.js';
import type { SimMedia, SimTicket } from '../../src/sim/model.js';
import {
  type BotFixture,
  buttonClick,
  eventually,
  people,
  secret,
  submission,
  useBot,
} from '../helpers/bot.js';
import { type BodyFault, startPlatformFront } from '../helpers/platform-front.js';
import { slackSignature } from '../helpers/slack-requests.js';

/*
 * Every way a file travels through the bot, each broken on the way: the platform's download
 * (platform → bot) cut, reset, stalled, trickled, longer than announced, with and without
 * Content-Length, or given up by the bot; Slack's upload URL (bot → Slack) refusing, resetting or
 * stalling. Four doors carry files: a ticket's export from its card, a media shared from the
 * library, a ticket's media posted in its card's thread, and all of a ticket's media in one zip
 * (the platform's archive) posted there too. Each time the process stays up (no error
 * reaches it: heard here, and counted by the last resort in /metrics), the person is told what
 * failed, nothing half-posted is in Slack, and the same request then works.
 */

const f = {} as BotFixture;
const front = await startPlatformFront(() => f.platform.sim.url);
/** The platform's body timeout: a stalled download fails after this long without a byte. */
const bodyMs = 800;
const webhookSecret = 'stream-faults-webhook-secret';
useBot(f, { client: { baseUrl: front.url, timeouts: { bodyMs } }, metrics: {}, webhookSecret });

const escaped: unknown[] = [];
const heard = (error: unknown) => {
  escaped.push(error);
  console.error('escaped to the process:', error);
};
let uninstall: () => void = () => undefined;
const idleMs = uploadLimits.idleMs;
/** Where the archive without Content-Length is counted: a folder of this file's, to see it emptied. */
const spoolDir = mkdtempSync(join(tmpdir(), 'stream-faults-'));
const spooled = () => readdirSync(spoolDir);
beforeAll(() => {
  process.on('uncaughtException', heard);
  process.on('unhandledRejection', heard);
  // The bot's own last resort too, on this process (its stop recorded, not run): /metrics reads it.
  uninstall = installLastResort({ logger: createLogger('silent'), stop: (kind) => heard(kind) });
  uploadLimits.idleMs = 1_500;
  uploadLimits.spoolDir = spoolDir;
});
afterAll(async () => {
  uploadLimits.idleMs = idleMs;
  uploadLimits.spoolDir = '';
  rmSync(spoolDir, { recursive: true, force: true });
  uninstall();
  process.off('uncaughtException', heard);
  process.off('unhandledRejection', heard);
  await front.stop();
});
afterEach(async () => {
  expect(escaped).toEqual([]);
  // Whatever happened, no download is left in a temporary file (removed once the upload is done).
  await eventually(() => spooled().length === 0, 2_000);
  expect(front.pending()).toBe(0);
});

type Json = Record<string, unknown>;
type Door = 'export' | 'library share' | 'card media' | 'card all media';
const doors: Door[] = ['export', 'library share', 'card media', 'card all media'];
const mediaDoors: Door[] = ['library share', 'card media'];
/** The doors that refuse a download without any length (the archive's is counted instead). */
const sizedDoors: Door[] = ['export', 'library share', 'card media'];

let serial = 0;
const channel = () => `CSF${++serial}`;
const ticket = (reference: string) =>
  [...f.platform.sim.state.tickets.values()].find((t) => t.reference === reference) as SimTicket;
const adminId = () =>
  [...f.platform.sim.state.users.values()].find((u) => u.username === 'admin')?.id as number;

/** A file of the door's kind and where it goes: a ticket's card (its thread) or a channel. */
interface Trip {
  door: Door;
  channel: string;
  card: SlackMessage | undefined;
  ticket: SimTicket;
  media: SimMedia | undefined;
  /** The download's path at the platform (what the front breaks). */
  download: RegExp;
  /** The answer that carries the media's record (its size), for the doors that read one. */
  record: RegExp | undefined;
  /** The file's bytes when no single source holds them (the zip of the ticket's media). */
  bytes?: Buffer | undefined;
}

/** What the person saw, and the messages with a file the request left in Slack. */
interface Outcome {
  said: string;
  files: SlackMessage[];
}

async function showCard(reference: string, where: string): Promise<SlackMessage> {
  await f.command(`show ${reference}`, people.admin.id, where, '/ticket');
  return eventually(() =>
    f.slack.messages.find((m) => m.channel === where && !m.thread_ts && String(m.text).startsWith(reference)),
  );
}

/** A trip through `door`; a media's file of `size` bytes (an export's is the ticket's, about 2 kB). */
async function trip(door: Door, size = 256 * 1024): Promise<Trip> {
  const where = channel();
  const t = ticket('ACME-1004');
  const card = door === 'library share' ? undefined : await showCard('ACME-1004', where);
  // The zip holds every media of the ticket: the earlier trips' are taken off it, so it stays small.
  if (door === 'card all media')
    for (const m of [...f.platform.sim.state.medias.values()])
      if (m.ticketId === t.id) f.platform.sim.state.medias.delete(m.id);
  const media =
    door === 'export'
      ? undefined
      : f.platform.sim.state.addMedia({
          enterpriseId: 1,
          userId: adminId(),
          type: 'recording',
          title: `Fault ${serial}`,
          format: 'video/mp4',
          content: { kind: 'bytes', data: randomBytes(size) },
          ticketId: t.id,
        });
  const zip =
    door === 'card all media'
      ? Buffer.concat(
          await zipStream(
            [...f.platform.sim.state.medias.values()]
              .filter((m) => m.ticketId === t.id)
              .map((m) => ({ name: m.filename, content: m.content })),
          ).toArray(),
        )
      : undefined;
  return {
    door,
    channel: where,
    card,
    ticket: t,
    media,
    bytes: zip,
    download:
      door === 'card all media'
        ? new RegExp(`^/api/v3/tickets/${t.id}/medias/download$`)
        : media
          ? new RegExp(`^/api/v3/medias/${media.id}/download$`)
          : /^\/api\/v3\/exports\//,
    record:
      door === 'library share'
        ? new RegExp(`^/api/v3/medias/${media?.id}$`)
        : door === 'card media'
          ? new RegExp(`^/api/v3/tickets/${t.id}/medias$`)
          : undefined,
  };
}

/** The bytes the file should have: the media's, or the platform's latest export. */
function sourceBytes(tr: Trip): Buffer {
  if (tr.bytes) return tr.bytes;
  if (tr.media) return (tr.media.content as { data: Buffer }).data;
  return [...f.platform.sim.state.exports.values()].at(-1)?.body as Buffer;
}

const filesIn = (tr: Trip) =>
  f.slack.messages.filter(
    (m) =>
      m.channel === tr.channel &&
      (tr.card ? m.thread_ts === tr.card.ts : true) &&
      (m.metadata as Json | undefined)?.files,
  );

/** A modal's outcome once the bot replaced it (the result view), as text. */
const modalOutcome = (viewId: string) =>
  eventually(() => {
    const v = f.slack.views.get(viewId)?.view;
    return v?.callback_id === ids.views.working && JSON.stringify(v.blocks);
  });

/** Carries the trip's file through its door, as the person would ask; resolves once answered. */
async function carry(tr: Trip): Promise<Outcome> {
  const before = filesIn(tr).length;
  let said: string;
  if (tr.door === 'export') {
    const form = {
      type: 'modal',
      callback_id: ids.views.ticketExport,
      private_metadata: JSON.stringify({
        ticketId: String(tr.ticket.id),
        channel: tr.channel,
        ts: tr.card?.ts,
      }),
      blocks: [],
    };
    const id = f.slack.pushModal(people.admin.id, form);
    await f.interact(submission({ ...form, id }, people.admin.id, {}));
    said = await modalOutcome(id);
  } else if (tr.door === 'library share') {
    const form = {
      type: 'modal',
      callback_id: ids.views.mediaShare,
      private_metadata: JSON.stringify({ m: String(tr.media?.id) }),
      blocks: [],
    };
    const id = f.slack.pushModal(people.admin.id, form);
    await f.interact(
      submission({ ...form, id }, people.admin.id, {
        channel: { value: { type: 'conversations_select', selected_conversation: tr.channel } },
      }),
    );
    said = await modalOutcome(id);
  } else {
    const card = tr.card as SlackMessage;
    const click = buttonClick(f.slack, {
      user: people.admin.id,
      ...(tr.door === 'card all media'
        ? {
            actionId: ids.actions.ticketMediaPostAll,
            value: JSON.stringify({ ticketId: String(tr.ticket.id), channel: card.channel, ts: card.ts }),
          }
        : {
            actionId: `${ids.actions.ticketMediaPost}:${tr.media?.id}`,
            value: JSON.stringify({
              k: String(tr.ticket.id),
              m: String(tr.media?.id),
              c: card.channel,
              t: card.ts,
            }),
          }),
      channel: card.channel,
      ephemeral: true,
    });
    await f.interact(click);
    // Posted, it says nothing; otherwise it answers privately.
    const path = new URL(click.response_url as string).pathname;
    said = await eventually(() => {
      if (filesIn(tr).length > before) return 'posted';
      const answer = f.slack.responses.find((r) => r.path === path && r.body.text);
      return answer && String(answer.body.text);
    }, 10_000);
  }
  return { said, files: filesIn(tr).slice(before) };
}

/** The file reached its place whole (the bytes Slack received are the source's). */
function expectWhole(tr: Trip, o: Outcome, bytes = sourceBytes(tr)): void {
  expect(o.files).toHaveLength(1);
  const fileId = String((o.files[0]?.metadata as { files?: string[] } | undefined)?.files?.[0]);
  expect(f.slack.uploads.get(fileId)?.bytes?.equals(bytes)).toBe(true);
}

/** A failure was told, nothing was posted, and the same request then works. */
async function expectToldThenServed(tr: Trip, o: Outcome, told: RegExp): Promise<void> {
  expect(o.said).toMatch(told);
  expect(o.files).toEqual([]);
  expectWhole(tr, await carry(tr));
}

const removeSize = (mediaId: number | undefined) => (json: unknown) =>
  walk(json, (o) => {
    if (o.id === mediaId) delete o.size;
  });
const setSize = (mediaId: number | undefined, size: number) => (json: unknown) =>
  walk(json, (o) => {
    if (o.id === mediaId) o.size = size;
  });
function walk(x: unknown, visit: (o: Json) => void): void {
  if (Array.isArray(x)) for (const v of x) walk(v, visit);
  else if (x && typeof x === 'object') {
    visit(x as Json);
    for (const v of Object.values(x)) walk(v, visit);
  }
}

const brokeOff = /The connection to the video platform broke off before the file was whole/;
const stopped = /The video platform stopped sending the file before it was whole/;
const half = (tr: Trip) => Math.floor(sourceBytes(tr).length / 2);
/** The export's file exists only once asked for: its size is guessed (a ticket's JSON is over 1 kB). */
const midway = (tr: Trip) => (tr.media ? half(tr) : 600);

describe('a download the platform breaks (platform → bot)', () => {
  describe.each(doors)('through the %s', (door) => {
    it('cut mid-body (FIN), with its length: told, nothing posted, served after', async () => {
      const tr = await trip(door);
      front.fault(tr.download, { kind: 'cut', afterBytes: midway(tr) });
      await expectToldThenServed(tr, await carry(tr), brokeOff);
    });

    it('reset mid-body (RST), with its length: told, nothing posted, served after', async () => {
      const tr = await trip(door);
      front.fault(tr.download, { kind: 'reset', afterBytes: midway(tr) });
      await expectToldThenServed(tr, await carry(tr), brokeOff);
    });

    it('stalled mid-body: the body timeout tells it, nothing posted, served after', async () => {
      const tr = await trip(door);
      front.fault(tr.download, { kind: 'stall', afterBytes: midway(tr) });
      await expectToldThenServed(tr, await carry(tr), stopped);
    });

    it('trickling (never idle for the body timeout) arrives whole', async () => {
      const tr = await trip(door);
      front.fault(tr.download, { kind: 'trickle', chunkBytes: tr.media ? 16 * 1024 : 128, everyMs: 20 });
      expectWhole(tr, await carry(tr));
    });

    it('larger than its Content-Length: the announced bytes are the file', async () => {
      const tr = await trip(door);
      front.fault(tr.download, { kind: 'longer', extraBytes: 4096 });
      expectWhole(tr, await carry(tr));
    });
  });

  // A media's record gives its size: a download without Content-Length is sent on with it.
  describe.each(mediaDoors)('without Content-Length, through the %s', (door) => {
    it('arrives whole, its size from the media’s record', async () => {
      const tr = await trip(door);
      front.fault(tr.download, { kind: 'as-is', length: false });
      expectWhole(tr, await carry(tr));
    });

    it.each([
      ['cut mid-body', 'cut', brokeOff],
      ['reset mid-body', 'reset', brokeOff],
      ['stalled mid-body', 'stall', stopped],
    ] as const)('%s: told, nothing posted, served after', async (_, kind, told) => {
      const tr = await trip(door);
      front.fault(tr.download, { kind, afterBytes: half(tr), length: false });
      await expectToldThenServed(tr, await carry(tr), told);
    });

    it('trickling arrives whole', async () => {
      const tr = await trip(door);
      front.fault(tr.download, { kind: 'trickle', chunkBytes: 16 * 1024, everyMs: 20, length: false });
      expectWhole(tr, await carry(tr));
    });

    it('larger than its record says: refused, nothing posted, served after', async () => {
      const tr = await trip(door);
      front.editJson(tr.record as RegExp, setSize(tr.media?.id, half(tr)));
      front.fault(tr.download, { kind: 'as-is', length: false });
      await expectToldThenServed(tr, await carry(tr), /is not the \d+ bytes it announced/);
    });
  });
});

// The archive of a ticket's media has no record to give its size: without Content-Length it is
// counted into a temporary file, then sent on with the length counted.
describe('without Content-Length, through the card all media (counted into a temporary file)', () => {
  it('arrives whole, its length the bytes counted', async () => {
    const tr = await trip('card all media');
    front.fault(tr.download, { kind: 'as-is', length: false });
    expectWhole(tr, await carry(tr));
    const slot = f.slack.callsOf('files.getUploadURLExternal').at(-1);
    expect(Number(slot?.args.length)).toBe(sourceBytes(tr).length);
  });

  it.each([
    ['cut mid-body', 'cut', brokeOff],
    ['reset mid-body', 'reset', brokeOff],
    ['stalled mid-body', 'stall', stopped],
  ] as const)('%s: told, nothing asked of Slack, served after', async (_, kind, told) => {
    const tr = await trip('card all media');
    const slots = f.slack.callsOf('files.getUploadURLExternal').length;
    front.fault(tr.download, { kind, afterBytes: half(tr), length: false });
    const o = await carry(tr);
    expect(f.slack.callsOf('files.getUploadURLExternal').length).toBe(slots);
    await expectToldThenServed(tr, o, told);
  });

  it('trickling arrives whole', async () => {
    const tr = await trip('card all media');
    front.fault(tr.download, { kind: 'trickle', chunkBytes: 16 * 1024, everyMs: 20, length: false });
    expectWhole(tr, await carry(tr));
  });

  it('past Slack’s limit while counted: stopped there and told, nothing uploaded, served after', async () => {
    const tr = await trip('card all media');
    const media = f.confdesk.deps.media;
    const limit = media.maxUploadBytes;
    media.maxUploadBytes = 10_000;
    const slots = f.slack.callsOf('files.getUploadURLExternal').length;
    try {
      const answer = front.fault(tr.download, { kind: 'as-is', length: false });
      const o = await carry(tr);
      expect(o.said).toMatch(
        /together are more than 10(\.0)? kB: past Slack’s file size limit \(10(\.0)? kB\), so nothing was uploaded/,
      );
      expect(o.files).toEqual([]);
      expect(f.slack.callsOf('files.getUploadURLExternal').length).toBe(slots);
      await eventually(answer.closed);
    } finally {
      media.maxUploadBytes = limit;
    }
    expectWhole(tr, await carry(tr));
  });
});

describe('a JSON answer the platform breaks after its headers (platform → bot)', () => {
  it.each([
    ['reset (RST)', 'reset'],
    ['cut (FIN)', 'cut'],
  ] as const)(
    '%s: the ticket’s media list (a GET) is asked again and the file is posted',
    async (_, kind) => {
      const tr = await trip('card media');
      const from = f.platform.sim.requests.length;
      front.fault(tr.record as RegExp, { kind, afterBytes: 20 });
      const o = await carry(tr);
      expect(o.said).toBe('posted');
      expectWhole(tr, o);
      const asked = f.platform.sim.requests.slice(from).filter((r) => tr.record?.test(r.path));
      expect(asked.map((r) => r.method)).toEqual(['GET', 'GET']);
    },
  );

  it('an export (a POST) is not asked again: the person is told the connection broke and that it may be done', async () => {
    const tr = await trip('export');
    const post = new RegExp(`^/api/v3/tickets/${tr.ticket.id}/export$`);
    const from = f.platform.sim.requests.length;
    front.fault(post, { kind: 'reset', afterBytes: 20 });
    await expectToldThenServed(
      tr,
      await carry(tr),
      /The connection to the video platform broke off during its answer, so it may have done this already/,
    );
    // The failed trip's POST once, then the trip that served it.
    const posts = f.platform.sim.requests.slice(from).filter((r) => r.method === 'POST' && post.test(r.path));
    expect(posts).toHaveLength(2);
  });
});

/*
 * An undici body the bot gives up on: destroyed, its error heard. A small one is whole in the bot by
 * then (destroying it raises an error nothing else hears); a large one is still coming (its
 * connection must be released, not left paused until the process stops).
 */
const sizes = [
  ['small (whole in the bot when given up)', 2 * 1024],
  ['large (still coming when given up)', 256 * 1024],
] as const;

describe('a download the bot gives up on', () => {
  describe.each(sizes)('%s', (_, size) => {
    it.each(sizedDoors)(
      'without a length anywhere (%s): refused, nothing posted, served after',
      async (door) => {
        const tr = await trip(door, size);
        if (tr.record) front.editJson(tr.record, removeSize(tr.media?.id));
        const answer = front.fault(tr.download, { kind: 'as-is', length: false });
        await expectToldThenServed(tr, await carry(tr), /did not say how big this file is/);
        if (tr.media && size > 64 * 1024) expect(answer.closed()).toBe(true);
      },
    );

    it.each(mediaDoors)(
      'past Slack’s limit by its Content-Length (%s): the link instead, nothing uploaded',
      async (door) => {
        const tr = await trip(door, size);
        const media = f.confdesk.deps.media;
        const limit = media.maxUploadBytes;
        media.maxUploadBytes = 1_000;
        const slots = f.slack.callsOf('files.getUploadURLExternal').length;
        try {
          front.editJson(tr.record as RegExp, removeSize(tr.media?.id));
          const answer = front.fault(tr.download, { kind: 'as-is' });
          const o = await carry(tr);
          expect(o.said).toMatch(/past Slack.s file size limit/);
          expect(o.files).toEqual([]);
          expect(f.slack.callsOf('files.getUploadURLExternal').length).toBe(slots);
          if (size > 64 * 1024) await eventually(answer.closed);
        } finally {
          media.maxUploadBytes = limit;
        }
        expectWhole(tr, await carry(tr));
      },
    );

    it.each(doors)(
      'when Slack gives no upload address (%s): told, nothing posted, served after',
      async (door) => {
        const tr = await trip(door, size);
        f.slack.failNext('files.getUploadURLExternal', { kind: 'error', error: 'invalid_arguments' });
        const answer = front.fault(tr.download, { kind: 'as-is' });
        const o = await carry(tr);
        // Slack's refusal is told as any unexpected one: with a reference the log line carries.
        expect(o.said).toMatch(/Something went wrong on confdesk.s side \(reference `[0-9A-F]{6}`\)/);
        expect(o.files).toEqual([]);
        if (tr.media && size > 64 * 1024) await eventually(answer.closed);
        expectWhole(tr, await carry(tr));
      },
    );
  });

  it('an export from a card whose thread the store no longer knows: told, nothing asked of the platform', async () => {
    const tr = await trip('export');
    const unknown = { ...tr, card: { ...(tr.card as SlackMessage), ts: '1700000000.000100' } };
    const from = f.platform.sim.requests.length;
    const o = await carry(unknown);
    expect(o.said).toContain('This card has no thread I know to post the export in');
    expect(f.platform.sim.requests.slice(from).filter((r) => r.method === 'POST')).toEqual([]);
    expect(filesIn(tr)).toEqual([]);
    expectWhole(tr, await carry(tr));
  });
});

describe('an upload Slack breaks (bot → Slack’s upload URL)', () => {
  const cases: [string, UploadFault, RegExp][] = [
    ['answers 500', { kind: 'status', status: 500 }, /Slack's upload address answered 500/],
    ['resets the connection mid-body', { kind: 'reset', afterBytes: 1_000 }, /connection to Slack broke off/],
    [
      'stalls (reads nothing more, never answers)',
      { kind: 'stall', afterBytes: 1_000 },
      /Slack stopped taking/,
    ],
  ];
  describe.each(doors)('through the %s', (door) => {
    it.each(cases)('%s: told, nothing posted, served after', async (_, fault, told) => {
      const tr = await trip(door);
      f.slack.uploadFaults.push(fault);
      await expectToldThenServed(tr, await carry(tr), told);
    });
  });

  describe.each([...mediaDoors, 'card all media' as const])(
    'of a download without Content-Length, through the %s',
    (door) => {
      it.each(cases)('%s: told, nothing posted, served after', async (_, fault, told) => {
        const tr = await trip(door);
        front.fault(tr.download, { kind: 'as-is', length: false } satisfies BodyFault);
        f.slack.uploadFaults.push(fault);
        await expectToldThenServed(tr, await carry(tr), told);
      });
    },
  );
});

/** Sends a request's head and the start of its announced body, then ends the connection as `how` says. */
function cutRequest(path: string, headers: Record<string, string>, how: 'cut' | 'reset'): Promise<void> {
  const { port } = new URL(f.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      const head = Object.entries({ host: `127.0.0.1:${port}`, 'content-length': '10000', ...headers })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n{"payload":"`, () =>
        setTimeout(() => (how === 'reset' ? socket.resetAndDestroy() : socket.end()), 50),
      );
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
    // After a FIN the server may hold its end open (until its request timeout): not waited for.
    setTimeout(() => {
      socket.destroy();
      resolve();
    }, 300);
  });
}

describe('a request cut on its way in (Slack → bot, the platform’s webhooks)', () => {
  const signed = () => {
    const ts = Math.floor(Date.now() / 1000);
    return {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(ts),
      'x-slack-signature': slackSignature(secret, ts, '{"payload":"'),
    };
  };
  it.each([
    ['cut (FIN)', 'cut'],
    ['reset (RST)', 'reset'],
  ] as const)('mid-body, %s: the next ones are served', async (_, how) => {
    await cutRequest('/slack/events', signed(), how);
    await cutRequest(
      '/webhooks/platform',
      { 'content-type': 'application/json', 'x-webhook-secret': webhookSecret },
      how,
    );
    const res = await f.command('help', people.admin.id, channel());
    expect(res.status).toBe(200);
    const hook = await fetch(`${f.url}/webhooks/platform`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-secret': webhookSecret },
      body: '{}',
    });
    expect(hook.status).toBe(400);
  });
});

describe('the process', () => {
  it('heard no escaped error, and the last resort counted none in /metrics', async () => {
    // A download given up on and left with its errors unheard would fail after the body timeout.
    await new Promise((r) => setTimeout(r, bodyMs * 1.5));
    expect(escaped).toEqual([]);
    const text = await (await fetch(`${f.url}/metrics`)).text();
    expect(text).toContain('confdesk_escaped_errors_total{kind="uncaughtException"} 0');
    expect(text).toContain('confdesk_escaped_errors_total{kind="unhandledRejection"} 0');
  });
});
