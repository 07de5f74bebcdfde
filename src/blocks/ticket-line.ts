import { spansSteps, stateIcon } from '../domain/ticket-workflow.js';
import type { Locale } from '../i18n/locale.js';
import { fallbackText } from './kit.js';
import { clipPlain, joinMd, type Mrkdwn, type MrkdwnText, md, mention } from './mrkdwn.js';
import { t } from './text.js';
import { fieldLabel, stateLabel } from './ticket-labels.js';

/**
 * What a person did to a ticket from Slack, as the publisher queues it in the outbox: facts, not
 * text, so delivery renders (and escapes) them whenever it posts.
 */
export interface PersonLine {
  line: 'moved' | 'took' | 'edited' | 'deleted' | 'created';
  /** The Slack user who acted. */
  actor: string;
  from?: string | null | undefined;
  to?: string | null | undefined;
  /** The fields an edit changed. */
  fields?: string[] | undefined;
}

const state = (locale: Locale, s: string | null | undefined): Mrkdwn =>
  md`${stateIcon(s ?? undefined)} *${clipPlain(stateLabel(locale, s), 100)}*`;

/** One line of a ticket's thread saying who did what from Slack: "<@U…> moved the ticket from … to …." */
export function buildPersonLine(locale: Locale, p: PersonLine): { text: MrkdwnText } {
  return { text: fallbackText(personLine(locale, p)) };
}

/** The sentence of `buildPersonLine`. */
export function personLine(locale: Locale, p: PersonLine): Mrkdwn {
  const actor = mention(p.actor);
  switch (p.line) {
    case 'moved':
      return t(locale, 'ticket.line.moved', { actor, from: state(locale, p.from), to: state(locale, p.to) });
    case 'took':
      return t(locale, 'ticket.line.took', { actor });
    case 'edited':
      return p.fields?.length
        ? t(locale, 'ticket.line.editedFields', {
            actor,
            fields: clipPlain(p.fields.map((f) => fieldLabel(locale, f)).join(', '), 500),
          })
        : t(locale, 'ticket.line.edited', { actor });
    case 'deleted':
      return t(locale, 'ticket.line.deleted', { actor });
    default:
      return t(locale, 'ticket.line.created', { actor });
  }
}

/**
 * A state change the poller saw on a list page, for a card's thread ("The ticket moved from … to
 * …"): facts queued as `{stateLine, from, to}`, rendered and escaped when delivered. The timeline
 * read later (if any) leaves out the state events it told (its cover, `only: 'state'`).
 */
export function buildStateLine(locale: Locale, p: { from?: unknown; to?: unknown }): { text: MrkdwnText } {
  return { text: fallbackText(stateLine(locale, p)) };
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/**
 * The sentence of `buildStateLine`. A move the workflow makes only in steps says so (the list shows
 * its ends only): the steps follow in their own line once the ticket's history shows them.
 */
export function stateLine(locale: Locale, p: { from?: unknown; to?: unknown }): Mrkdwn {
  const [from, to] = [str(p.from), str(p.to)];
  return t(locale, spansSteps(from, to) ? 'ticket.line.stateMovedSteps' : 'ticket.line.stateMoved', {
    from: state(locale, from),
    to: state(locale, to),
  });
}

/**
 * The steps a state line spanned, once the timeline shows them (the list showed only the ends of
 * `new → open → inprogress` within one scan): "Step by step: new → open → inprogress." Each move is
 * said; none stays hidden behind the line.
 */
export function stepsLine(locale: Locale, p: { steps?: unknown }): Mrkdwn {
  const steps = (Array.isArray(p.steps) ? p.steps : []).slice(0, 20).map((s) => state(locale, str(s)));
  return t(locale, 'ticket.line.steps', { steps: joinMd(steps, ' → ') });
}

/** Lines of one thread gathered at most this many to a message (a channel's backlog goes out in fewer posts). */
export const gatheredLinesMax = 10;

/**
 * Several lines of one ticket's thread as one message, in their order, when they wait together for
 * the channel's pace (Slack takes about one message a second in a channel). It writes no word of its
 * own: the lines come written in the channel's language.
 */
export function buildGatheredLines(lines: readonly Mrkdwn[]): { text: MrkdwnText } {
  return { text: fallbackText(joinMd(lines.slice(0, gatheredLinesMax), '\n')) };
}
