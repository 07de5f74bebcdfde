import { z } from 'zod';

/*
 * Zod schemas at the boundary with the platform.
 * Inputs: the spec's rules (platform-api.md sections 4 and 8), each with a message that names what to fix.
 * Outputs: tolerant of unknown fields and of the shapes the real service is known to use
 * (platform-facts.md), because real record shapes are mostly unpublished.
 */

// ---------- inputs ----------

const utcDateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Formats a Date as the spec's `YYYY-MM-DDThh:mm:ssZ` (no milliseconds). */
export function toUtcDateTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A date-time sent to the platform: a Date, or a string already in `YYYY-MM-DDThh:mm:ssZ`. */
export const utcDateTime = z.union([
  z
    .date({ error: 'expected a date-time' })
    .refine((d) => !Number.isNaN(d.getTime()), 'expected a valid date-time')
    .transform(toUtcDateTime),
  z
    .string()
    .regex(utcDateTimePattern, 'expected a UTC date-time written as YYYY-MM-DDThh:mm:ssZ')
    .refine(
      (s) => !Number.isNaN(Date.parse(s)) && toUtcDateTime(new Date(s)) === s,
      'is not a real date-time',
    ),
]);

/** A calendar date `YYYY-MM-DD` that exists. */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date written as YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, 'is not a real date');

const reportTimeHint = 'expected YYYY-MM-DD, YYYY-MM-DD hh:mm:ss or Unix seconds';

/** Report bounds: a date, a date with time, or Unix seconds (platform-facts.md, tickets report). */
export const reportTime = z
  .union([z.date(), z.number(), z.string()], { error: reportTimeHint })
  .transform((v, ctx) => {
    if (v instanceof Date) return String(Math.floor(v.getTime() / 1000));
    if (typeof v === 'number') {
      if (Number.isInteger(v) && v >= 0) return String(v);
    } else if (/^\d{9,11}$/.test(v) || calendarDate.safeParse(v).success) {
      return v;
    } else if (
      /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}Z?$/.test(v) &&
      !Number.isNaN(Date.parse(v.replace(' ', 'T')))
    ) {
      return v;
    }
    ctx.addIssue({ code: 'custom', message: reportTimeHint });
    return z.NEVER;
  });

export const email = z.email({ error: 'expected an e-mail address such as name@example.com' });

/** Removes the separators people type in phone numbers. */
const normalizePhone = (s: string) => s.replace(/[\s().-]/g, '');

/** An international phone number (E.164, leading +). */
export const phone = z
  .string()
  .transform(normalizePhone)
  .pipe(z.string().regex(/^\+[1-9]\d{6,14}$/, 'expected an international phone number such as +33612345678'));

/** A list given as an array or a comma-separated string, normalized to an array of trimmed items. */
const listOf = <T extends z.ZodType<string, string>>(item: T) =>
  z
    .union([z.array(z.string()), z.string()])
    .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(item));

/** Conference participants: a non-empty list of e-mails or international phone numbers, sent comma-separated. */
export const participants = listOf(
  z.string().superRefine((s, ctx) => {
    if (s.includes('@')) {
      if (!email.safeParse(s).success)
        ctx.addIssue({ code: 'custom', message: `"${s}" is not a valid e-mail` });
    } else if (!phone.safeParse(s).success) {
      ctx.addIssue({
        code: 'custom',
        message: `"${s}" is neither an e-mail nor an international phone number (+33612345678)`,
      });
    }
  }),
)
  .transform((list) => list.map((s) => (s.includes('@') ? s : normalizePhone(s))))
  .refine((list) => list.length > 0, 'give at least one e-mail or phone number');

/**
 * Local parts of generic or shared mailboxes, which the spec forbids as ticket recipients
 * ("no generic or shared mailbox").
 */
export const sharedMailboxes = new Set([
  'admin',
  'administrator',
  'contact',
  'help',
  'helpdesk',
  'hello',
  'info',
  'mail',
  'marketing',
  'no-reply',
  'noreply',
  'office',
  'postmaster',
  'sales',
  'service',
  'support',
  'team',
  'webmaster',
]);

export const ticketEmails = listOf(email).refine(
  (list) => list.every((e) => !sharedMailboxes.has(e.split('@')[0]?.toLowerCase() ?? '')),
  'use a person’s own e-mail: generic or shared mailboxes (info@, support@, contact@…) are not allowed',
);
export const phones = listOf(phone);

/** A service key: 32 lowercase alphanumeric characters (platform-facts.md). */
export const serviceKey = z.string().regex(/^[a-z0-9]{32}$/, 'expected a 32-character lowercase service key');

/** Conference `scope`: only `sso` is available (spec section 5). */
export const ssoScope = listOf(z.enum(['sso'], { error: 'the only available scope is sso' }));

export const intId = z.union([
  z.number().int().positive(),
  z.string().regex(/^\d+$/, 'expected a numeric id').transform(Number).pipe(z.number().int().positive()),
]);
export const userRef = z.union([z.string().min(1), z.number().int().positive()]).transform(String);

/** ISO 3166-1 alpha-2 codes (officially assigned). */
const countryCodes = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
    'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
    'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
    'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
    'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);
export const country = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .refine((s) => countryCodes.has(s), 'expected an ISO 3166-1 alpha-2 country code such as FR or US');

/** The ten ticket states of the spec (section 3). */
export const ticketStates = [
  'new',
  'open',
  'invited',
  'inprogress',
  'done',
  'closed',
  'rejected',
  'declined',
  'expired',
  'cancelled',
] as const;
export type TicketState = (typeof ticketStates)[number];
export const ticketState = z.enum(ticketStates, { error: `expected one of: ${ticketStates.join(', ')}` });

export const paging = {
  offset: z.number().int().nonnegative().optional(),
  limit: z.number().int().positive().optional(),
};

// ---------- outputs ----------

/**
 * A timestamp as the platform writes it: ISO 8601 with `Z` or an offset (`+00:00`), or the legacy
 * `YYYY-MM-DD hh:mm:ss` (read as UTC). Parsed to a Date.
 */
export const timestamp = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const text = typeof v === 'number' ? new Date(v * 1000).toISOString() : v;
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(text) ? `${text.replace(' ', 'T')}Z` : text;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: 'custom', message: `not a timestamp: ${JSON.stringify(v).slice(0, 40)}` });
    return z.NEVER;
  }
  return new Date(ms);
});

/** Ids arrive as numbers, sometimes as numeric strings. */
export const recordId = z.union([z.number(), z.string()]);

const num = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);
const optionalNullable = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? undefined);

/** A PHP backend writes an empty object as `[]` (platform-facts.md): read that as "nothing". */
const isEmptyArray = (v: unknown) => Array.isArray(v) && v.length === 0;

/** An optional object that may come as `[]` when empty: read as absent. */
const optionalObject = <T extends z.ZodType>(t: T) =>
  z.preprocess((v) => (isEmptyArray(v) ? undefined : v), optionalNullable(t));

/** A map (event `data`, webhook `props`) that may come as `[]` when empty: read as `{}`. */
export const looseMap = z.preprocess((v) => (isEmptyArray(v) ? {} : v), z.record(z.string(), z.unknown()));

/** A whole answer that is an object, or `[]` when the platform has nothing to say (report, statistics). */
const objectAnswer = <T extends z.ZodType>(t: T) => z.preprocess((v) => (isEmptyArray(v) ? {} : v), t);

/** A person as the platform embeds them (agent, moderator, created_by): an id, a username, or an object. */
export const personRef = z.union([
  recordId,
  z.looseObject({
    id: recordId.optional(),
    username: z.string().optional(),
    email: z.string().nullish(),
    phone: z.string().nullish(),
    firstname: z.string().nullish(),
    lastname: z.string().nullish(),
    name: z.string().nullish(),
  }),
]);

export const conferenceRecord = z.looseObject({
  id: recordId,
  name: optionalNullable(z.string()),
  room_name: optionalNullable(z.string()),
  service_key: optionalNullable(z.string()),
  url: optionalNullable(z.string()),
  start_time: optionalNullable(timestamp),
  duration: optionalNullable(num),
  status: optionalNullable(z.string()),
  participants: optionalNullable(z.union([z.array(z.unknown()), z.string()])),
  moderator: optionalObject(personRef),
  created_by: optionalObject(personRef),
  created: optionalNullable(timestamp),
  modified: optionalNullable(timestamp),
});
export type ConferenceRecord = z.output<typeof conferenceRecord>;

export const userRecord = z.looseObject({
  id: recordId,
  username: optionalNullable(z.string()),
  email: optionalNullable(z.string()),
  cell_phone: optionalNullable(z.string()),
  first_name: optionalNullable(z.string()),
  last_name: optionalNullable(z.string()),
  role: optionalNullable(z.string()),
  enterprise_id: optionalNullable(recordId),
  groups: optionalNullable(z.array(z.unknown())),
});
export type UserRecord = z.output<typeof userRecord>;

/** Where `/users/me` may carry the enterprise id, in the order they are tried (platform-facts.md: unknown). */
export const enterpriseIdFields = ['enterprise_id', 'enterpriseId', 'enterprise.id'] as const;

/** The enterprise id of a `/users/me` answer and the field it was found in; undefined when none has one. */
export function findEnterpriseId(me: Record<string, unknown>): { id: number; field: string } | undefined {
  const enterprise = me.enterprise;
  const nested =
    enterprise && typeof enterprise === 'object' ? (enterprise as Record<string, unknown>).id : undefined;
  const candidates: [string, unknown][] = [
    ['enterprise_id', me.enterprise_id],
    ['enterpriseId', me.enterpriseId],
    ['enterprise.id', nested],
  ];
  for (const [field, v] of candidates)
    if ((typeof v === 'number' && Number.isInteger(v) && v > 0) || (typeof v === 'string' && /^\d+$/.test(v)))
      return { id: Number(v), field };
  return undefined;
}

/**
 * `/users/me`: the enterprise id is read here, in ONE place, from whichever field carries it, and
 * normalised to `enterprise_id` (a number); `enterprise_id_field` says where it was found.
 */
export const meRecord = userRecord
  .extend({
    enterprise_id: z.unknown().optional(),
    enterprise: optionalObject(z.looseObject({ id: recordId.optional(), name: z.string().nullish() })),
  })
  .transform((me, ctx) => {
    const found = findEnterpriseId(me);
    if (!found) {
      ctx.addIssue({
        code: 'custom',
        path: ['enterprise_id'],
        message:
          `/users/me carries no enterprise id (looked for ${enterpriseIdFields.join(', ')}); ` +
          'check that PLATFORM_URL is the Apizee API host and that the token belongs to a user of an enterprise',
      });
      return z.NEVER;
    }
    return { ...me, enterprise_id: found.id, enterprise_id_field: found.field } as typeof me & {
      enterprise_id: number;
      enterprise_id_field: string;
    };
  });
export type MeRecord = z.output<typeof meRecord>;

export const groupRecord = z.looseObject({ id: recordId, name: optionalNullable(z.string()) });
export type GroupRecord = z.output<typeof groupRecord>;

export const mediaRecord = z.looseObject({
  id: recordId,
  type: optionalNullable(z.string()),
  status: optionalNullable(z.string()),
  title: optionalNullable(z.string()),
  description: optionalNullable(z.string()),
  size: optionalNullable(num),
  format: optionalNullable(z.string()),
  filename: optionalNullable(z.string()),
  created: optionalNullable(timestamp),
  conversation_id: optionalNullable(recordId),
  ticket_id: optionalNullable(recordId),
  conference_id: optionalNullable(recordId),
});
export type MediaRecord = z.output<typeof mediaRecord>;

/** `requestor.phone` and `.email` are a string or an array of strings in the wild. */
const stringOrList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]));

export const ticketRecord = z.looseObject({
  id: recordId,
  /** Any string: the ten states, and also e.g. `opened`/`updated` from webhooks (platform-facts.md). */
  state: optionalNullable(z.string()),
  reference: optionalNullable(z.string()),
  type: optionalNullable(z.string()),
  subject: optionalNullable(z.string()),
  description: optionalNullable(z.string()),
  created: optionalNullable(timestamp),
  modified: optionalNullable(timestamp),
  start_time: optionalNullable(timestamp),
  end_time: optionalNullable(timestamp),
  duration: optionalNullable(num),
  group_id: optionalNullable(recordId),
  agent: optionalObject(personRef),
  requestor: optionalObject(
    z.looseObject({
      name: z.string().nullish(),
      phone: stringOrList.nullish(),
      email: stringOrList.nullish(),
    }),
  ),
});
export type TicketRecord = z.output<typeof ticketRecord>;

export const ticketEventRecord = z.looseObject({
  id: recordId.transform(String),
  eventName: z.string(),
  timestamp: timestamp,
  source: optionalNullable(z.string()),
  data: optionalNullable(looseMap),
});
export type TicketEventRecord = z.output<typeof ticketEventRecord>;

export const statisticsRecord = objectAnswer(
  z.looseObject({
    user_count: optionalNullable(num),
    disk_usage: optionalNullable(num),
    sms_count: optionalNullable(num),
    session_count: optionalNullable(num),
    session_duration: optionalNullable(num),
    session_billing_duration: optionalNullable(num),
  }),
);
export type StatisticsRecord = z.output<typeof statisticsRecord>;

/** The tickets report: its field names are not published, so everything is kept as sent. */
export const ticketsReport = objectAnswer(z.looseObject({}));
export type TicketsReport = z.output<typeof ticketsReport>;

/** The export answer: "a resource used to fetch the exported file" (shape inferred). */
export const exportResource = z.looseObject({
  id: optionalNullable(recordId),
  url: optionalNullable(z.string()),
  status: optionalNullable(z.string()),
});
export type ExportResource = z.output<typeof exportResource>;

/** A page of a list: the platform may send a bare array or the legacy `{data,total,next_offset}` envelope. */
export interface Page<T> {
  items: T[];
  total: number | undefined;
  nextOffset: number | undefined;
}

export const listOfRecords = <T extends z.ZodType>(item: T) =>
  z
    .union([
      z.array(item),
      z.looseObject({
        data: z.array(item),
        total: optionalNullable(num),
        next_offset: optionalNullable(num),
      }),
    ])
    .transform(
      (v): Page<z.output<T>> =>
        Array.isArray(v)
          ? { items: v, total: undefined, nextOffset: undefined }
          : { items: v.data, total: v.total, nextOffset: v.next_offset },
    );

/** Answers that carry an id and perhaps more (user create/update/id lookup). */
export const idAnswer = z.union([
  recordId.transform((id) => ({ id })),
  z.looseObject({ id: recordId }),
  z.looseObject({ userId: recordId }).transform((v) => ({ ...v, id: v.userId })),
]);

/** Any JSON, or nothing (204). */
export const anyAnswer = z.unknown();

export const tokenAnswer = z.looseObject({
  access_token: z.string().min(1),
  created_at: optionalNullable(timestamp),
  expires_in: optionalNullable(num),
});
