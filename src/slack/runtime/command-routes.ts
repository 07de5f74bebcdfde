import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { type Reply, type TextMessage, textMessage } from '../../blocks/kit.js';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import { buildUsage, type HelpLine, helpIn } from '../../blocks/usage.js';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import type { Responder } from '../replies/reply-error.js';
import { slowMs, type WorkingAction, workingText } from '../replies/working-notice.js';
import { afterAck, requestLog } from './after-ack.js';
import { personLocale } from './person-locale.js';

/** What a verb's handler gets of a slash command, copied out of Bolt's request. */
export interface SlashCommand {
  user: string;
  team: string;
  channel: string;
  /** The command's whole text. */
  text: string;
  triggerId: string;
  client: WebClient;
  /** Bolt's `respond`, typed so that only a builder's message (`Reply`) goes out. */
  respond: Responder;
  /** The request's logger: user, team and command on every line. */
  log: Logger;
  /**
   * The language of what the person alone sees (the help, its problems): English on a verb's first
   * run; when that run answered with the help (`usage`), its second run has the person's Slack locale.
   */
  locale: Locale;
  /** The command's help (built from its verb table), after what went wrong when there is something to say. */
  usage: (problem?: Mrkdwn | string) => TextMessage;
}

/**
 * What a verb does with a command: answers in the ack (`say`), or acks, with a "Working…" line or
 * with nothing (a modal opens), and does the rest after the ack (`later`).
 */
export type VerbAnswer =
  | { say: Reply }
  | {
      /**
       * The "Working…" the ack says privately (with the rate budget's wait), in the person's language
       * when it is a catalog `Phrase`; unset, an empty ack.
       */
      working?: WorkingAction;
      /** Runs after the ack, detached; what it throws is told privately (`replyError`'s command surface). */
      later: () => Promise<unknown>;
      /** The reply for a failure, when it is more than the sentence (e.g. with the form's button). */
      failure?: (message: Mrkdwn) => Reply;
      /** false: a failure adds a message, where the ack said nothing to replace. */
      replace?: false;
    };

/** One verb of a command: its lines in the command's help, and what it does with what was read. */
export interface Verb<P, D> {
  /**
   * Its other words, besides its key: the French ones (`liste` for `list`). The table is the one list
   * of a command's words: its reader learns them from `verbWords`.
   */
  aliases?: readonly string[];
  /**
   * Its lines in the help, in the table's order; none when another verb's line names it too. Catalog
   * keys in a translated command's table, English mrkdwn in one not translated yet (`HelpLine`).
   */
  usage: readonly HelpLine[];
  /**
   * Its answer. A promise only for a verb that must ask Slack before it knows its ack (whether the
   * person administers the workspace): the ack waits for it, so it must be quick.
   */
  run: (parsed: P, c: SlashCommand, deps: D) => VerbAnswer | Promise<VerbAnswer>;
}

/** A verb's handler, for the verbs whose handler lives in a file of its own. */
export type VerbRun<P, D> = Verb<P, D>['run'];

/** Every verb a command's reader can tell, with its help and handler: the types check that none is missing. */
export type VerbTable<P extends { kind: string }, D> = { [K in P['kind']]: Verb<P & { kind: K }, D> };

/**
 * Every word a verb table answers to, lower-case, to its verb: each verb's key and its `aliases`, but
 * the verbs in `unread` (those no word names, such as `unknown`). A word listed twice throws.
 */
export function verbWords<K extends string, U extends K = never>(
  verbs: { readonly [kind in K]: { aliases?: readonly string[]; usage: unknown } },
  unread: readonly U[] = [],
): ReadonlyMap<string, Exclude<K, U>> {
  const words = new Map<string, Exclude<K, U>>();
  for (const kind of Object.keys(verbs) as K[]) {
    if ((unread as readonly string[]).includes(kind)) continue;
    for (const word of [kind, ...(verbs[kind].aliases ?? [])].map((w) => w.toLowerCase())) {
      if (words.has(word)) throw new Error(`the verb word ${word} is listed twice`);
      words.set(word, kind as Exclude<K, U>);
    }
  }
  return words;
}

/** A verb table's help in `locale`: `title`, then its rows' lines in the table's order. */
const tableHelp = (
  locale: Locale,
  title: HelpLine,
  verbs: { [kind: string]: { usage: readonly HelpLine[] } },
): Mrkdwn =>
  helpIn(
    locale,
    title,
    Object.values(verbs).flatMap((v) => v.usage),
  );

/**
 * A slash command's verbs behind its one Bolt listener, as `ActionRoutes` is for the buttons: `read`
 * tells the verb from the text, the table gives its handler, and its help is built from the same
 * table. Each command is acked at once (with what the verb says, or "Working…"); the rest runs
 * detached (`after-ack.ts`), its failures told privately by `replyError`.
 */
export class CommandRoutes<P extends { kind: string }, D> {
  private readonly help: Record<Locale, Mrkdwn>;

  constructor(
    private readonly o: {
      /** The help's first line: the command and what it is for. */
      title: HelpLine;
      read: (text: string) => P;
      verbs: VerbTable<P, D>;
      deps: D;
      logger: Logger;
      /** About how long the platform's rate budget will hold the next interactive call, in ms. */
      waitMs: () => number;
      /** The person's language (their cached Slack profile's); unset, English. */
      locale?: (user: string) => Promise<Locale>;
    },
  ) {
    this.help = { en: tableHelp('en', o.title, o.verbs), fr: tableHelp('fr', o.title, o.verbs) };
  }

  /** The command's help in `locale`, after `problem` when there is one. */
  usage(locale: Locale, problem?: Mrkdwn | string): TextMessage {
    return buildUsage(this.help[locale], problem);
  }

  /** The Bolt listener of the command. */
  readonly listener = async ({
    ack,
    command,
    respond,
    client,
  }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    const log = requestLog(this.o.logger, {
      user: command.user_id,
      team: command.team_id,
      command: command.command,
    });
    // The person's language is asked for only when the answer shows the help: the verb runs in
    // English first, and once more in their language when it answered with the help (such answers
    // are the verb's words read back, with nothing done yet). Most commands thus wait for nothing.
    let usageShown = false;
    const commandIn = (locale: Locale): SlashCommand => ({
      user: command.user_id,
      team: command.team_id,
      channel: command.channel_id,
      text: command.text ?? '',
      triggerId: command.trigger_id,
      client,
      respond,
      log,
      locale,
      usage: (problem) => {
        usageShown = true;
        return this.usage(locale, problem);
      },
    });
    let c = commandIn('en');
    const parsed = this.o.read(c.text);
    const verb = this.o.verbs[parsed.kind as P['kind']] as Verb<P, D>;
    const ran = verb.run(parsed, c, this.o.deps);
    // Most verbs answer at once: no await (and no turn given away) before their ack.
    let answer = ran instanceof Promise ? await ran : ran;
    if (usageShown && 'say' in answer) {
      const locale = await personLocale(this.o.locale, command.user_id);
      if (locale !== 'en') {
        c = commandIn(locale);
        const again = verb.run(parsed, c, this.o.deps);
        answer = again instanceof Promise ? await again : again;
      }
    }
    if ('say' in answer) return ack({ response_type: 'ephemeral', ...answer.say });
    if (answer.working === undefined) await ack();
    else {
      // The "Working…" in the person's language: the language already known (a cached profile), or,
      // when the notice tells a long wait for the platform's budget, their language asked for (at
      // most a second: the request waits far longer anyway).
      const waitMs = this.o.waitMs();
      const locale =
        c.locale !== 'en'
          ? c.locale
          : await personLocale(this.o.locale, command.user_id, waitMs >= slowMs ? 'bounded' : 'known');
      await ack({
        response_type: 'ephemeral',
        ...textMessage(workingText(locale, answer.working, waitMs)),
      });
    }
    const user = command.user_id;
    afterAck(
      {
        kind: 'command',
        respond,
        channel: c.channel,
        // A failure is told in the person's language (asked for then, at most a second).
        locale: c.locale !== 'en' ? c.locale : () => personLocale(this.o.locale, user),
        log,
        ...(answer.replace === false ? { replace: false } : {}),
        ...(answer.failure ? { build: answer.failure } : {}),
      },
      answer.later,
    );
  };
}

/**
 * A verb whose words are a verb table of their own (`/conference digest …`), under a command's table
 * like any verb: `read` tells its verb from the words after it, and the help its verbs' `c.usage`
 * gives is built from their rows (`title` first), as a command's is.
 */
export function verbTableVerb<P extends { kind: string }, D>(o: {
  /** Its lines in the command's help. */
  usage: readonly HelpLine[];
  /** Its own help's first line. */
  title: HelpLine;
  read: (args: string) => P;
  verbs: VerbTable<P, D>;
}): Verb<{ args: string }, D> & { help: Mrkdwn } {
  const help = { en: tableHelp('en', o.title, o.verbs), fr: tableHelp('fr', o.title, o.verbs) };
  return {
    usage: o.usage,
    help: help.en,
    run: ({ args }, c, deps) => {
      const parsed = o.read(args);
      const verb = o.verbs[parsed.kind as P['kind']] as Verb<P, D>;
      const usage = (problem?: Mrkdwn | string) => {
        c.usage(problem); // tells the command's routes that the help is shown (see `usageShown`)
        return buildUsage(help[c.locale], problem);
      };
      return verb.run(parsed, { ...c, usage }, deps);
    },
  };
}
