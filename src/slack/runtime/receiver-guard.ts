import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import {
  HTTPModuleFunctions,
  type HTTPReceiver,
  isValidSlackRequest,
  type Logger as SlackLogger,
} from '@slack/bolt';
import { z } from 'zod';
import { boltLogger } from '../../observability/bolt-logger.js';
import type { Logger } from '../../observability/logger.js';
import { rateLimitedLine } from '../../observability/rate-limited-log.js';
import { notJson, parseJson } from '../input/payloads.js';

/*
 * What Slack's signature lets through but Bolt 5 cannot take. Bolt's HTTPReceiver parses the body and
 * reads `body.ssl_check` outside any try (HTTPReceiver.js, handleIncomingEvent), so a signed
 * `payload=null` is an unhandled rejection that ends the process; App.processEvent then reads
 * `body.user.id`, `event.channel.id`, `view.app_installed_team_id`… (App.js buildSource,
 * helpers.js getTypeAndConversation) and destructures `actions`, so other shapes end in HTTP 500, or
 * wait 3 s for a 404 when Bolt cannot tell the request's kind. These schemas are exactly what those
 * reads and our listeners need (a user id wherever a listener acts for someone); anything else Slack
 * documents stays allowed. Only the verdict is used, never the parsed copy, so the objects are zod's
 * plain ones: they accept every other field as loose ones do, without checking each against a
 * catch-all (3–4 times faster on Slack's bodies, on every request's way to its ack).
 */

const obj = z.object({});
const id = z.string().min(1);
const person = z.object({ id });
/** Bolt reads `team.id` when a team is there, else `user.team_id`; a team is null in org-wide installs. */
const team = obj.nullish();
/** Bolt reads `channel.id` whenever `channel` is not undefined (so null breaks it). */
const channel = obj.optional();
const str = z.string().optional();

const blockAction = z.object({
  action_id: z.string(),
  block_id: str,
  type: str,
  value: str,
  selected_option: z.object({ value: z.string() }).nullish(),
  selected_options: z.array(z.object({ value: z.string() })).optional(),
  selected_user: str,
  selected_users: z.array(z.string()).optional(),
  selected_conversation: str,
  selected_channel: str,
  selected_date: str,
  selected_time: str,
});

const interactive = {
  type: z.string(),
  user: person,
  team,
  channel,
  response_url: str,
  trigger_id: str,
  container: z.object({ channel_id: str, message_ts: str }).optional(),
  message: obj.optional(),
};

const eventCallback = z.object({
  event: z.object({
    type: z.string(),
    // Bolt: `'creator' in event.channel`, `event.user.id`, `'channel' in event.item`, `event.subteam.created_by`.
    channel: z.union([z.string(), obj]).optional(),
    user: z.union([z.string(), obj]).optional(),
    item: obj.optional(),
    subteam: obj.optional(),
  }),
  authorizations: z.array(obj).optional(),
});

const command = z.object({
  command: z.string().startsWith('/'),
  user_id: id,
  channel_id: z.string(),
  team_id: str,
  text: str,
  trigger_id: str,
  response_url: str,
});

const options = z.object({ ...interactive, type: str });
const blockActions = z.object({ ...interactive, actions: z.array(blockAction).min(1) });
const otherActions = z.object({ ...interactive, actions: z.array(obj).optional() });
const shortcut = z.object(interactive);

const stateValues = z.object({ values: z.record(z.string(), z.record(z.string(), obj)) });
const viewAction = (state: z.ZodType) =>
  z.object({
    type: z.string(),
    user: person,
    team,
    view: z.object({ id: z.string(), callback_id: z.string(), private_metadata: str, state }),
  });
const viewSubmission = viewAction(stateValues);
const viewClosed = viewAction(stateValues.optional());

/** The schema for a body, chosen in Bolt's own order (helpers.js getTypeAndConversation). */
function schemaFor(body: Record<string, unknown>): z.ZodType | undefined {
  if (body.event !== undefined) return eventCallback;
  if (body.command !== undefined) return command;
  if (body.name !== undefined || body.type === 'block_suggestion') return options;
  if (body.actions !== undefined || body.type === 'dialog_submission')
    return body.type === 'block_actions' ? blockActions : otherActions;
  if (body.type === 'shortcut' || body.type === 'message_action') return shortcut;
  if (body.type === 'view_submission') return viewSubmission;
  if (body.type === 'view_closed') return viewClosed;
  return undefined;
}

/** Why a request's parsed body cannot go to Bolt (a short reason naming fields, never their values). */
export function checkSlackBody(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return `the body is ${Array.isArray(body) ? 'an array' : body === null ? 'null' : `a ${typeof body}`}, not an object`;
  const b = body as Record<string, unknown>;
  // Bolt answers these two itself without reading anything else.
  if (b.ssl_check === '1' || b.type === 'url_verification') return undefined;
  const schema = schemaFor(b);
  if (!schema) return 'not a kind of request Slack sends (no event, command, actions, view or known type)';
  const result = schema.safeParse(b);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  const path = (issue?.path ?? []).map(String).join('.').slice(0, 100);
  return `${path || 'body'}: ${issue?.code ?? 'invalid'}${issue && 'expected' in issue ? ` (expected ${String(issue.expected)})` : ''}`;
}

/**
 * The body as Bolt's `parseHTTPRequestBody` reads it (HTTPModuleFunctions.js): a form's `payload` is
 * JSON, other forms are fields (a field sent twice becomes an array, which no schema here accepts);
 * any other content type is JSON.
 */
export function readSlackBody(
  raw: string,
  contentType: string | undefined,
): { body: unknown } | { error: string } {
  let json = raw;
  if (contentType === 'application/x-www-form-urlencoded') {
    const form = parseForm(raw);
    if (form.payload === undefined) return { body: form };
    if (typeof form.payload !== 'string') return { error: 'the form has several payload fields' };
    json = form.payload;
  }
  const body = parseJson(json);
  return body === notJson ? { error: 'the body is not valid JSON' } : { body };
}

/**
 * Puts a check in front of Bolt's HTTP receiver on its events endpoint: a request whose body Bolt
 * would crash or 500 on gets 400 (when its signature is valid; otherwise Bolt answers 401 as always)
 * and one log line without the body, which may hold personal data. Everything else goes to Bolt
 * unchanged: Bolt reuses the body read here (it keeps it on the request as `rawBody`). A body that
 * cannot be read (larger than Bolt's limit, cut short) is refused before any signature is known, so
 * anyone can cause it: it is one warning a minute at most, which counts the ones held back.
 */
export function guardReceiver(
  receiver: HTTPReceiver,
  o: { signingSecret: string; logger: Logger; endpoint?: string },
): HTTPReceiver {
  const bolt = receiver.requestListener;
  const endpoint = o.endpoint ?? '/slack/events';
  const refuse = (res: ServerResponse, status: number, reason: string) => {
    o.logger.warn({ status, reason }, 'refused a malformed Slack request');
    if (!res.headersSent) res.writeHead(status).end();
  };
  const unreadableLine = rateLimitedLine((fields, message) => o.logger.warn(fields, message));
  const check = async (req: IncomingMessage, res: ServerResponse) => {
    let raw: string;
    try {
      const buffered = await HTTPModuleFunctions.bufferIncomingMessage(
        req,
        HTTPModuleFunctions.defaultBodyLimit,
      );
      raw = buffered.rawBody.toString();
    } catch (error) {
      const bodyError = HTTPModuleFunctions.isRawBodyError(error) ? error : undefined;
      const status = bodyError?.statusCode ?? 400;
      unreadableLine(
        { status, reason: `unreadable body${bodyError ? ` (${bodyError.type})` : ''}` },
        'refused a Slack request whose body could not be read (larger than 4 MB, or cut short)',
      );
      if (!res.headersSent) res.writeHead(status).end();
      return;
    }
    const contentType = req.headers['content-type'];
    const read = readSlackBody(raw, contentType);
    const problem = 'error' in read ? read.error : checkSlackBody(read.body);
    if (problem === undefined || !signedBySlack(req, raw, o.signingSecret)) return bolt(req, res);
    refuse(res, 400, problem);
  };
  receiver.requestListener = (req, res) => {
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://localhost').pathname !== endpoint)
      return bolt(req, res);
    check(req, res).catch((error: unknown) => {
      o.logger.error({ err: error }, 'the Slack request check failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
  return receiver;
}

function signedBySlack(req: IncomingMessage, body: string, signingSecret: string): boolean {
  const signature = req.headers['x-slack-signature'];
  const timestamp = Number(req.headers['x-slack-request-timestamp']);
  if (typeof signature !== 'string' || !Number.isFinite(timestamp)) return false;
  return isValidSlackRequest({
    signingSecret,
    body,
    headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp },
  });
}

/**
 * What Bolt 5.1's HTTPReceiver writes for each request to its events endpoint without a valid
 * signature (the body was read by the guard already, so nothing else reaches that line). Should an
 * upgrade of Bolt change the text, the receiver's tests of unsigned requests fail.
 */
const unsignedPrefix = 'Failed to parse and verify the request data: ';

/**
 * The logger for Bolt's HTTPReceiver: Bolt's own lines (`boltLogger`), except its warning for each
 * request without a valid signature, which anyone can send: it becomes at most one warning a minute,
 * with Bolt's reason and a count of the ones held back. A wrong SLACK_SIGNING_SECRET (every request
 * of Slack's refused) still shows, once a minute; every other line of Bolt's is written as it comes.
 */
export function receiverLogger(logger: Logger, o: { now?: () => number } = {}): SlackLogger {
  const bolt = boltLogger(logger);
  const log = logger.child({ component: 'bolt' });
  const unsigned = rateLimitedLine((fields, message) => log.warn(fields, message), o);
  return {
    ...bolt,
    warn: (...msgs: unknown[]) => {
      const first = msgs[0];
      if (msgs.length === 1 && typeof first === 'string' && first.startsWith(unsignedPrefix))
        return unsigned(
          { status: 401, reason: first.slice(unsignedPrefix.length).slice(0, 200) },
          "refused a request to the Slack events endpoint without a valid Slack signature (if Slack's own requests get this, check SLACK_SIGNING_SECRET)",
        );
      bolt.warn(...msgs);
    },
  };
}
