import type { TicketMove } from '../domain/ticket-workflow.js';
import { catalogs, type MessageKey } from '../i18n/catalog.js';
import type { Locale } from '../i18n/locale.js';
import { tPlain } from './text.js';

/*
 * The platform's values the ticket surfaces name (a state, an event, its source, an edited field, a
 * move), through their labels in the catalog (i18n/messages/tickets.ts): an unknown value is shown
 * as the platform wrote it. Plain strings: `md`/`t` escape them where they are interpolated.
 */

/** The catalog's label for `prefix` + `value`, or undefined when the catalog has none. */
function labelOf(locale: Locale, prefix: string, value: string): string | undefined {
  const key = `${prefix}${value}`;
  return Object.hasOwn(catalogs.en, key) ? tPlain(locale, key as MessageKey) : undefined;
}

/** A ticket's state as a channel or a person reads it (`open` → «ouvert»); unknown: raw; none: "unknown". */
export const stateLabel = (locale: Locale, state: string | null | undefined): string =>
  state ? (labelOf(locale, 'ticket.state.', state) ?? state) : tPlain(locale, 'ticket.state.unknown');

/** A timeline event's name (`session.established` → «session établie»); unknown: raw. */
export const eventLabel = (locale: Locale, eventName: string): string =>
  labelOf(locale, 'ticket.event.', eventName) ?? eventName;

/** An event's source (agent, guest, system); unknown: raw. */
export const sourceLabel = (locale: Locale, source: string): string =>
  labelOf(locale, 'ticket.source.', source) ?? source;

/** A field an edit changed (`subject` → «objet»); unknown: raw. */
export const fieldLabel = (locale: Locale, field: string): string =>
  labelOf(locale, 'ticket.field.', field) ?? field;

/** A card's move as its button says it (`assign` → «Prendre en charge»). */
export const moveLabel = (locale: Locale, move: Pick<TicketMove, 'id' | 'label'>): string =>
  labelOf(locale, 'ticket.move.', move.id) ?? move.label;
