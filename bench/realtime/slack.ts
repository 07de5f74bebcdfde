/*
 * The Slack double as its own process, for bench/realtime.ts: Slack's pace of one post a second per
 * channel (`channelPaceMs = 1000`: a faster chat.postMessage gets 429 with Retry-After 1, nothing
 * posted), the person UBENCH (admin@acme.example, the simulator's admin), and a second small server
 * (the "control") for the bench:
 *
 *   POST /cards?age=    [{ticketId, channel, text}] → {ticketId: ts}: puts each ticket's card message in
 *                       its channel (as if the bot had posted it `age` seconds before the run, 3600)
 *   POST /response-url  {channel, user, ts?, command?} → {url}: a response_url for a person's request
 *   GET  /calls?from=   every Web API call the double answered past Slack's pace and checks, in order:
 *                       method, channel, thread_ts, ts, ok/error, metadata, the ticket of a card, time
 *   GET  /attempts      every Web API call received (429s included), counted by method and channel,
 *                       and each chat.postMessage received (channel, thread, the card's ticket, time)
 *   GET  /responses     every post to a response_url, with its time
 *   POST /step          {callbackId, inputs} → {executionId, event}: a Workflow Builder step's run
 *                       begins (its own token); the bench sends the event to the bot
 *   GET  /steps         every step run, with how and when it ended (functions.complete*)
 *   POST /people        [{id, email}]: Slack people (bench/realtime-unfurls.ts)
 *   POST /paste         {user, channel, text, domains} → {ts, event}: a person's message and the
 *                       link_shared event Slack would send for it (null without a link of `domains`)
 *   GET  /unfurls       every chat.unfurl answered: channel, ts, links, ok, time
 *
 * It prints one line `REALTIME_SLACK {"api":…,"control":…}` once both listen, and stops on SIGTERM/SIGINT.
 */

import { createServer, type IncomingMessage } from 'node:http';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { type Recorded, serveControl } from './control.js';

const slack = await new SlackDouble().start();
slack.channelPaceMs = 1_000;
slack.addUser({ id: 'UBENCH', email: 'admin@acme.example', name: 'bench' });
// REALTIME_PEOPLE more people (bench/realtime-reminders.ts): UP<i>, person<i>@acme.example.
for (let i = 0; i < Number(process.env.REALTIME_PEOPLE ?? 0); i++)
  slack.addUser({ id: `UP${i}`, email: `person${i}@acme.example`, name: `person${i}` });

/** The value of the first `ticket_refresh` button in a message's blocks. */
function cardOf(blocks: unknown): string | undefined {
  let found: string | undefined;
  const walk = (v: unknown): void => {
    if (found !== undefined) return;
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      if (o.action_id === 'ticket_refresh' && typeof o.value === 'string') found = o.value;
      else for (const x of Object.values(o)) walk(x);
    }
  };
  walk(blocks);
  return found;
}

const recorded: Recorded[] = [];
/** Each chat.unfurl answered (bench/realtime-unfurls.ts): the message, the links, the time. */
const unfurled: {
  channel: string | undefined;
  ts: string | undefined;
  urls: string[];
  ok: boolean;
  at: number;
}[] = [];
// Each post and update the double answered, as the bench reads them.
slack.onAnswer = (method, a, r) => {
  if (method === 'chat.unfurl')
    unfurled.push({
      channel: a.channel as string | undefined,
      ts: a.ts as string | undefined,
      urls: Object.keys((a.unfurls as Record<string, unknown> | undefined) ?? {}),
      ok: r.ok === true,
      at: Date.now(),
    });
  if (method === 'chat.postMessage' || method === 'chat.update' || method === 'chat.postEphemeral')
    recorded.push({
      method,
      channel: a.channel as string | undefined,
      threadTs: a.thread_ts as string | undefined,
      ts: (r.ts ?? r.message_ts ?? a.ts) as string | undefined,
      ok: r.ok === true,
      error: r.ok === true ? undefined : String(r.error),
      metadata: a.metadata,
      card: cardOf(a.blocks),
      text: typeof a.text === 'string' ? a.text.slice(0, 160) : undefined,
      at: Date.now(),
    });
};

// Posts to response_urls, with their time.
const responses: { path: string; at: number; body: Record<string, unknown> }[] = [];
const responsesPush = slack.responses.push.bind(slack.responses);
slack.responses.push = (...items) => {
  responses.push(...items.map((r) => ({ ...r, at: Date.now() })));
  return responsesPush(...items);
};

let seq = 0;
const readJson = async (req: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
};

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://control');
  const send = (body: unknown) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const fail = (e: Error) => res.writeHead(500).end(e.message);
  switch (`${req.method} ${url.pathname}`) {
    case 'POST /cards':
      readJson(req).then((body) => {
        const cards = body as { ticketId: string; channel: string; text: string }[];
        const base = Math.floor(Date.now() / 1000) - Number(url.searchParams.get('age') ?? 3_600);
        const out: Record<string, string> = {};
        for (const c of cards) {
          const ts = `${base}.${String(++seq).padStart(6, '0')}`;
          slack.messages.push({
            channel: c.channel,
            ts,
            text: c.text,
            blocks: undefined,
            thread_ts: undefined,
            metadata: undefined,
            user: slack.botUserId,
          });
          out[c.ticketId] = ts;
        }
        send(out);
      }, fail);
      return;
    case 'POST /response-url':
      readJson(req).then((body) => {
        const b = body as { channel: string; user: string; ts?: string; command?: boolean };
        send({
          url: slack.responseUrlForUser({
            channel: b.channel,
            user: b.user,
            ...(b.ts ? { ts: b.ts } : {}),
            ...(b.command ? { command: true } : {}),
          }),
        });
      }, fail);
      return;
    case 'GET /calls': {
      const from = Number(url.searchParams.get('from') ?? 0);
      send({ next: recorded.length, calls: recorded.slice(from) });
      return;
    }
    case 'GET /attempts': {
      const counts: Record<string, Record<string, number>> = {};
      for (const c of slack.calls) {
        const byChannel = counts[c.method] ?? {};
        counts[c.method] = byChannel;
        const channel = String(c.args.channel ?? '');
        byChannel[channel] = (byChannel[channel] ?? 0) + 1;
      }
      // Each chat.postMessage received, answered or not (a 429 is an attempt that posted nothing).
      const posts = slack.calls
        .filter((c) => c.method === 'chat.postMessage')
        .map((c) => ({
          channel: c.args.channel,
          threadTs: c.args.thread_ts,
          card: cardOf(c.args.blocks),
          at: c.at,
        }));
      send({ counts, posts, violations: slack.violations.length });
      return;
    }
    case 'POST /people':
      readJson(req).then((body) => {
        for (const p of body as { id: string; email: string }[]) slack.addUser({ id: p.id, email: p.email });
        send({ ok: true });
      }, fail);
      return;
    case 'POST /paste':
      // A person's message with links, and the link_shared Slack would send for it (the bench signs it).
      readJson(req).then((body) => {
        const b = body as { user: string; channel: string; text: string; domains: string[] };
        const message = slack.postAsUser(b.user, b.channel, b.text);
        send({ ts: message.ts, event: slack.linkShared(message, b.domains) ?? null });
      }, fail);
      return;
    case 'GET /unfurls':
      send(unfurled);
      return;
    case 'GET /responses':
      send(responses);
      return;
    // A Workflow Builder step's run (bench/realtime-steps.ts): the function_executed event to send.
    case 'POST /step':
      readJson(req).then((body) => {
        const b = body as { callbackId: string; inputs: Record<string, unknown> };
        const { run, event } = slack.startStep(b);
        send({ executionId: run.executionId, event });
      }, fail);
      return;
    // Every step run and how it ended (functions.completeSuccess / completeError, and when).
    case 'GET /steps':
      send([...slack.stepRuns.values()]);
      return;
    default:
      req.resume();
      res.writeHead(404).end();
  }
});
await serveControl(control, 'REALTIME_SLACK', { api: slack.apiUrl }, () => slack.stop());
