import { ids } from '../../blocks/ids.js';
import { phrase, t } from '../../blocks/text.js';
import { buildTicketList } from '../../blocks/ticket-card.js';
import type { TicketFormValues, TicketSummary } from '../../domain/ticket.js';
import { parseTicketQuery, type TicketQueryProblem } from '../../domain/ticket-query.js';
import type { Locale } from '../../i18n/locale.js';
import { ticketPageSize } from '../../services/tickets.js';
import type { TicketFormDeps } from '../deps.js';
import { openTicketForm } from '../openers/forms.js';
import { postTicketCard } from '../openers/post-ticket-card.js';
import type { Responder } from '../replies/reply-error.js';
import {
  CommandRoutes,
  type SlashCommand,
  type Verb,
  type VerbAnswer,
  verbWords,
} from '../runtime/command-routes.js';
import type { Listeners } from '../runtime/listener-tables.js';
import { handleSubscriptionCommand } from './ticket-subscriptions.js';

/** `/ticket new …`: e-mails and phone numbers for the requestor, the rest of the words as the subject. */
export function ticketFormFromText(text: string, channel: string | undefined): TicketFormValues {
  const emails: string[] = [];
  const phones: string[] = [];
  const words: string[] = [];
  for (const raw of text.split(/\s+/).filter(Boolean)) {
    const w = /^<(?:mailto|tel):([^|>]+)(?:\|[^>]*)?>$/.exec(raw)?.[1] ?? raw.replace(/[,;]$/, '');
    if (w.includes('@') && !w.startsWith('<')) emails.push(w);
    else if (/^\+[\d().-]{6,}$/.test(w)) phones.push(w);
    else words.push(raw);
  }
  const subject = words.join(' ').trim();
  return { channel, emails, phones, scopes: [], ...(subject ? { subject } : {}) };
}

/** What a `/ticket` verb reads: the words after it, and those words as one ticket reference (`#` dropped). */
interface TicketWords {
  args: string;
  ref: string;
}

/** One id or reference, nothing more. */
const oneRef = (ref: string) => ref !== '' && !/\s/.test(ref);

const notUnderstood = (c: SlashCommand): VerbAnswer => ({
  say: c.usage(t(c.locale, 'ticket.notUnderstood')),
});

/** What is wrong with a `/ticket list` text, in the person's language. */
const listProblem = (locale: Locale, p: TicketQueryProblem) =>
  p.kind === 'requestor'
    ? t(locale, 'ticket.list.requestor', { value: p.value })
    : p.kind === 'date'
      ? t(locale, 'ticket.list.date', { key: p.key, value: p.value })
      : t(locale, p.kind === 'group' ? 'ticket.list.group' : 'ticket.list.ref');

/** `watch`, `unwatch`, `follow` and `subscriptions`, after a "Working…" (`ticket-subscriptions.ts`). */
const subscription =
  (verb: 'watch' | 'unwatch' | 'follow' | 'subscriptions') =>
  ({ ref }: TicketWords, c: SlashCommand, deps: TicketFormDeps): VerbAnswer => ({
    working: phrase('working.working'),
    later: async () => {
      const postCard = async (channel: string, r: { seen: TicketSummary }, reply: Responder) => {
        await postTicketCard(deps, reply, { channel, user: c.user }, r);
      };
      await handleSubscriptionCommand(
        { ...deps, postCard },
        verb,
        ref,
        // Its answers in the person's language (their cached profile, which the rights read too).
        { user: c.user, channel: c.channel, locale: await deps.locales.person(c.user) },
        c.respond,
      );
    },
  });

/**
 * `/ticket`'s verbs, in the order of its help: no text or `new …` opens the create form (prefilled);
 * `list …` answers a page of tickets privately (its buttons: `actions/ticket-list.ts`); `show` posts
 * (or re-posts) a ticket's live card in the channel (its thread gets the ticket's events once the
 * channel `watch`es it); the subscriptions; anything else gets the help.
 */
const ticketVerbs = {
  new: {
    aliases: ['nouveau'],
    usage: ['ticket.help.new'],
    run: ({ args }, c, deps) => {
      const values = ticketFormFromText(args, c.channel);
      // The ack said nothing: a failure is a message of its own.
      return { replace: false, later: () => openTicketForm(deps, c.client, c.triggerId, c.user, values) };
    },
  },
  list: {
    aliases: ['liste'],
    usage: ['ticket.help.list'],
    run: ({ args }, c, deps) => {
      const parsed = parseTicketQuery(args);
      if (!parsed.ok) return { say: c.usage(listProblem(c.locale, parsed.problem)) };
      return {
        working: phrase('working.lookingUpTickets'),
        later: async () => {
          // The page in the person's language (`c.locale` is theirs only for the help).
          const [page, locale] = await Promise.all([
            deps.tickets.list(c.user, parsed.query, 0),
            deps.locales.person(c.user),
          ]);
          await c.respond({
            response_type: 'ephemeral',
            replace_original: true,
            ...buildTicketList(locale, args, 0, ticketPageSize, page),
          });
        },
      };
    },
  },
  show: {
    aliases: ['voir'],
    usage: ['ticket.help.show'],
    run: ({ ref }, c, deps) =>
      oneRef(ref)
        ? {
            working: phrase('working.lookingUpTicket'),
            later: async () => {
              const done = await postTicketCard(deps, c.respond, { channel: c.channel, user: c.user }, ref, {
                reuse: { replace: true },
              });
              if (done !== 'linked') await c.respond({ delete_original: true });
            },
          }
        : notUnderstood(c),
  },
  watch: {
    aliases: ['suivre'],
    usage: ['ticket.help.watch'],
    run: (words, c, deps) => (oneRef(words.ref) ? subscription('watch')(words, c, deps) : notUnderstood(c)),
  },
  unwatch: {
    aliases: ['ne-plus-suivre'],
    usage: [],
    run: (words, c, deps) => (oneRef(words.ref) ? subscription('unwatch')(words, c, deps) : notUnderstood(c)),
  },
  follow: {
    aliases: ['surveiller'],
    usage: ['ticket.help.follow', 'ticket.help.followReactions'],
    run: subscription('follow'),
  },
  subscriptions: {
    aliases: ['abonnements'],
    usage: ['ticket.help.subscriptions'],
    run: subscription('subscriptions'),
  },
  help: {
    aliases: ['aide'],
    usage: ['ticket.help.help'],
    run: (_, c) => ({ say: c.usage() }),
  },
  /** A verb it does not know, or one of those above without the one reference it needs. */
  unknown: { usage: [], run: (_, c) => notUnderstood(c) },
} satisfies Record<string, Verb<TicketWords, TicketFormDeps>>;

type TicketCommand = TicketWords & { kind: keyof typeof ticketVerbs };

/** Every word of `/ticket`'s verbs, English and French, from the table. */
export const ticketWords = verbWords(ticketVerbs, ['unknown']);

/** `/ticket`'s text: its verb (none is `new`; a word not in the table is `unknown`), then its words. */
export function readTicketCommand(text: string): TicketCommand {
  const [first = '', ...rest] = text.trim().split(/\s+/);
  const verb = first.toLowerCase() || 'new';
  const args = rest.join(' ');
  const kind = ticketWords.get(verb) ?? 'unknown';
  return { kind, args, ref: args.replace(/^#/, '') };
}

/** `/ticket`: its verbs behind one listener (`ticketVerbs`); the help is built from the same table. */
export const handleTicketCommand = (deps: TicketFormDeps) =>
  new CommandRoutes<TicketCommand, TicketFormDeps>({
    title: 'ticket.help.title',
    read: readTicketCommand,
    verbs: ticketVerbs,
    deps,
    logger: deps.logger,
    waitMs: () => deps.waitMs(),
    locale: (user) => deps.access.locale(user),
  }).listener;

/** Registers `handleTicketCommand`. */
export function registerTicketCommand(app: Listeners, deps: TicketFormDeps): void {
  app.command(ids.commands.ticket, handleTicketCommand(deps));
}
