import type { MessageKey } from './en.js';
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
 * The French catalog: exactly the English one's keys (a missing or extra key is a type error).
 * Typography: a narrow no-break space (U+202F, written \u202f) before `:`, `;`, `?` and `!` in the
 * text itself (never inside `code`, `:emoji:`, URLs or Slack tokens), « guillemets » with U+202F inside
 * where quotes are shown, and the typographic apostrophe (’), which ICU leaves alone. The command
 * syntax between backticks is what people type, so it stays as the parsers read it. Times and dates
 * are written by i18n/format.ts (24-hour clock, `27 nov. 2026`), never in the messages.
 */
export const fr: Readonly<Record<MessageKey, string>> = {
  ...commands.fr,
  ...common.fr,
  ...conferences.fr,
  ...digest.fr,
  ...home.fr,
  ...media.fr,
  ...people.fr,
  ...ticketForms.fr,
  ...tickets.fr,
};
