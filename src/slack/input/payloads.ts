import { z } from 'zod';
import { md } from '../../blocks/mrkdwn.js';
import { ConfdeskError } from '../../services/errors.js';

/*
 * What the bot carries in button values, menu values and private_metadata, parsed with zod. Slack
 * signs the request, not the value: a forged or stale value gets a refusal, never an error page.
 */

/** A platform id as the bot writes it in values: digits. */
const platformId = z.string().regex(/^\d{1,20}$/);
const slackChannel = z.string().regex(/^[CDG][A-Z0-9]{1,30}$/);
const slackTs = z.string().regex(/^\d{1,12}\.\d{1,8}$/);

/** Where a ticket's card lives, carried in buttons and forms so the card can be updated in place. */
export const cardPlace = z.object({
  ticketId: platformId,
  channel: slackChannel.optional(),
  ts: slackTs.optional(),
});
export type CardPlace = z.infer<typeof cardPlace>;

/** A ticket's media file to post in the card's thread: ticket, media, card place, size, name. */
export const mediaPost = z.object({
  k: platformId,
  m: platformId,
  c: slackChannel,
  t: slackTs,
  s: z.number().int().nonnegative().optional(),
  n: z.string().max(300).optional(),
});

/** A page of `/ticket list`: the query's text and the offset. */
export const ticketPage = z.object({
  q: z.string().max(1_000),
  offset: z.number().int().min(0).max(100_000),
});

/** A page of `/conference list`. */
export const conferencePage = z.object({
  filter: z.enum(['upcoming', 'past', 'all']),
  search: z.string().max(1_000).optional(),
  offset: z.number().int().min(0).max(100_000),
});

/** A page of a conference's participants. */
export const participantsPage = z.object({ id: z.string().min(1).max(100), page: z.number().int().min(0) });

/** The ticket card's menu entries: `<entry>:<ticket id>`. */
export const ticketMenuValue = z
  .string()
  .regex(/^(timeline|media|export|edit|delete):\d{1,20}$/)
  .transform((v) => {
    const [kind, ticketId] = v.split(':') as [string, string];
    return { kind: kind as 'timeline' | 'media' | 'export' | 'edit' | 'delete', ticketId };
  });

/** A ticket or conference id in a button's value (conferences are also found by room name). */
export const idValue = z.string().regex(/^[\w.-]{1,100}$/);

/** A subscription id (a UUID). */
export const subscriptionId = z.string().uuid();

/** The conference form's private_metadata: a create, or the edit of a conference whose card lives somewhere. */
export const formMetadata = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('create') }),
  z.object({
    mode: z.literal('edit'),
    conferenceId: idValue,
    channel: slackChannel.optional(),
    ts: slackTs.optional(),
    responseUrl: z.string().url().max(3_000).optional(),
  }),
]);
export type FormMetadata = z.infer<typeof formMetadata>;

/** The digest form's private_metadata: the schedule being changed, if any. */
export const digestMetadata = z.object({ scheduleId: z.string().uuid().nullish() });

/** A platform id alone in a button's value (a media's). */
export const platformIdValue = platformId;
/** The media library's query, in its buttons and metadata: the filters' text and the offset. */
export const libraryQuery = z.object({ q: z.string().max(1_000), o: z.number().int().min(0).max(100_000) });
/** The library's Delete button: the query to show after, and the media. */
export const mediaDeleteValue = libraryQuery.extend({ m: platformId });
/** A library row's menu entry: `<verb>:<media id>`. */
export const mediaRowValue = z
  .string()
  .regex(/^(show|edit|share|delete):\d{1,20}$/)
  .transform((v) => {
    const [verb, mediaId] = v.split(':') as [string, string];
    return { verb: verb as 'show' | 'edit' | 'share' | 'delete', mediaId };
  });
/** The media forms' private_metadata: the media (edit, share) and the library view to refresh. */
export const mediaFormMetadata = z.object({
  m: platformId.optional(),
  v: z
    .string()
    .regex(/^V[A-Z0-9]{1,30}$/)
    .optional(),
  q: libraryQuery.optional(),
});

/** The refusal for a value the bot did not write, or wrote for something else. */
export const staleValue = () =>
  new ConfdeskError(
    'stale_button',
    md`This button or form is out of date or was not made by confdesk: run the command again.`,
  );

/** Parses a value the bot wrote; a `stale_button` refusal when it is not one. */
export function readValue<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw staleValue();
  return parsed.data;
}

/** Not JSON: what `parseJson` answers for text that is not (a symbol, so no JSON value equals it). */
export const notJson: unique symbol = Symbol('not JSON');

/** The one JSON.parse of slack/: text from outside (a value, metadata, a request body), never thrown on. */
export function parseJson(raw: string | undefined): unknown {
  try {
    return JSON.parse(raw ?? '') as unknown;
  } catch {
    return notJson;
  }
}

/** Parses a JSON value the bot wrote (a button value, private_metadata). */
export function readJson<T extends z.ZodType>(schema: T, raw: string | undefined): z.infer<T> {
  const json = parseJson(raw);
  if (json === notJson) throw staleValue();
  return readValue(schema, json);
}

/** The conference form's metadata; anything that is not an edit's (empty, forged) is a create form. */
export function readFormMetadata(raw: string | undefined): FormMetadata {
  const m = formMetadata.safeParse(parseJson(raw));
  return m.success ? m.data : { mode: 'create' };
}

/** The People browser's query (its private_metadata and its Previous/Next values): search and offset. */
export const peopleQuery = z.object({ q: z.string().max(500), o: z.number().int().min(0).max(1_000_000) });

/** A person's row menu entry: `<entry>:<platform user id>`. */
export const personMenuValue = z
  .string()
  .regex(/^(show|edit|reset|delete):\d{1,20}$/)
  .transform((v) => {
    const [kind, userId] = v.split(':') as [string, string];
    return { kind: kind as 'show' | 'edit' | 'reset' | 'delete', userId };
  });

/** The People browser a pushed modal came from (its view id and query), to refresh it after a write. */
export const browserRef = z.object({
  id: z.string().regex(/^V[A-Z0-9]{1,30}$/),
  q: z.string().max(500),
  o: z.number().int().min(0).max(1_000_000),
});
export type BrowserRef = z.infer<typeof browserRef>;

/** The user edit and delete modals' private_metadata: the platform user id, and the browser under them. */
export const personMetadata = z.object({ u: platformId, b: browserRef.optional() });

/** The create form's private_metadata: the browser under it (never anything typed in the form). */
export const createMetadata = z.object({ b: browserRef.optional() });

/** A page of a group's members: the group id and the offset. */
export const membersPage = z.object({ g: platformId, o: z.number().int().min(0).max(1_000_000) });
