import * as commands from './messages/commands.js';
import * as common from './messages/common.js';
import * as conferences from './messages/conferences.js';
import * as digest from './messages/digest.js';
import * as home from './messages/home.js';
import * as media from './messages/media.js';
import * as people from './messages/people.js';
import * as ticketForms from './messages/ticket-forms.js';
import * as tickets from './messages/tickets.js';

/*
 * The English catalog: the reference every other catalog has the keys of (fr.ts's type is this
 * one's keys), gathered from messages/ (one module a family of surfaces, each with its French).
 * Each value is one whole ICU message; the bot's own text here is escaped for Slack by
 * blocks/text.ts (a `<id>` shows literally), its `{variables}` filled with escaped outside text.
 * A literal `{`, `}` (or `#` inside a plural) is quoted ICU's way ('{').
 */
export const en = {
  ...commands.en,
  ...common.en,
  ...conferences.en,
  ...digest.en,
  ...home.en,
  ...media.en,
  ...people.en,
  ...ticketForms.en,
  ...tickets.en,
} as const;

/** A message of the catalogs. */
export type MessageKey = keyof typeof en;

/** The families of messages/, for the test that no key is in two of them. */
export const families = {
  commands,
  common,
  conferences,
  digest,
  home,
  media,
  people,
  ticketForms,
  tickets,
} as const;
