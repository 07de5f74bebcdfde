import { spansSteps, stateIcon } from '../domain/ticket-workflow.js';
import { fallbackText } from './kit.js';
import { clipPlain, empty, joinMd, type Mrkdwn, type MrkdwnText, md, mention } from './mrkdwn.js';

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

const state = (s: string | null | undefined): Mrkdwn =>
  md`${stateIcon(s ?? undefined)} *${clipPlain(s ?? 'unknown', 100)}*`;

/** One line of a ticket's thread saying who did what from Slack: "<@U…> moved the ticket from … to …." */
export function buildPersonLine(p: PersonLine): { text: MrkdwnText } {
  return { text: fallbackText(personLine(p)) };
}

/** The sentence of `buildPersonLine`. */
export function personLine(p: PersonLine): Mrkdwn {
  const what: Mrkdwn =
    p.line === 'moved'
      ? md`moved the ticket from ${state(p.from)} to ${state(p.to)}`
      : p.line === 'took'
        ? md`took the ticket`
        : p.line === 'edited'
          ? md`edited the ticket${p.fields?.length ? md`: ${clipPlain(p.fields.join(', '), 500)}` : empty}`
          : p.line === 'deleted'
            ? md`deleted the ticket`
            : md`created the ticket`;
  return md`${mention(p.actor)} ${what}.`;
}

/**
 * A state change the poller saw on a list page, for a card's thread ("The ticket moved from … to
 * …"): facts queued as `{stateLine, from, to}`, rendered and escaped when delivered. The timeline
 * read later (if any) leaves out the state events it told (its cover, `only: 'state'`).
 */
export function buildStateLine(p: { from?: unknown; to?: unknown }): { text: MrkdwnText } {
  return { text: fallbackText(stateLine(p)) };
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/**
 * The sentence of `buildStateLine`. A move the workflow makes only in steps says so (the list shows
 * its ends only): the steps follow in their own line once the ticket's history shows them.
 */
export function stateLine(p: { from?: unknown; to?: unknown }): Mrkdwn {
  const [from, to] = [str(p.from), str(p.to)];
  const moved = md`The ticket moved from ${state(from)} to ${state(to)}`;
  return spansSteps(from, to)
    ? md`${moved}, through steps in between: they follow here once the ticket's history shows them.`
    : md`${moved}.`;
}

/**
 * The steps a state line spanned, once the timeline shows them (the list showed only the ends of
 * `new → open → inprogress` within one scan): "Step by step: new → open → inprogress." Each move is
 * said; none stays hidden behind the line.
 */
export function stepsLine(p: { steps?: unknown }): Mrkdwn {
  const steps = (Array.isArray(p.steps) ? p.steps : []).slice(0, 20).map((s) => state(str(s)));
  return md`Step by step: ${joinMd(steps, ' → ')}.`;
}

/** Lines of one thread gathered at most this many to a message (a channel's backlog goes out in fewer posts). */
export const gatheredLinesMax = 10;

/**
 * Several lines of one ticket's thread as one message, in their order, when they wait together for
 * the channel's pace (Slack takes about one message a second in a channel).
 */
export function buildGatheredLines(lines: readonly Mrkdwn[]): { text: MrkdwnText } {
  return { text: fallbackText(joinMd(lines.slice(0, gatheredLinesMax), '\n')) };
}
