import { email, phone } from '../platform/schemas.js';
import { formatDuration, isWhenWord, parseDuration, type WhenFault, whenFault } from './time.js';

/*
 * The text of `/conference …`, read without any I/O. Slack sends it escaped (`should_escape: true`):
 * mentions arrive as `<@U123|name>`, e-mails as `<mailto:a@b.c|a@b.c>`, phones sometimes as
 * `<tel:+33…|…>`. https://api.slack.com/interactivity/slash-commands#creating_commands
 */

/** What a create command said, before the time is placed in the person's zone and mentions resolved. */
export interface ConferenceRequestText {
  /** E-mails and international phone numbers, in the order typed. */
  participants: string[];
  /** Slack user ids of `@mentions`. */
  mentions: string[];
  /** The time phrase as typed (`tomorrow 3pm`), read later in the person's zone. */
  when?: string;
  duration?: number;
  name?: string;
  /** Words the parser did not understand, shown back to the person. */
  unknown: string[];
  /** Things it understood but cannot accept (a bad time, two names…): codes, written by blocks/ in the reader's language. */
  problems: ConferenceTextProblem[];
}

/** What a create command's words cannot be read as (`value`: the words as typed). */
export type ConferenceTextProblem =
  | { kind: 'unclosedQuote' }
  | { kind: 'twoNames' }
  | { kind: 'notEmail'; value: string }
  | { kind: 'twoTimes'; value: string }
  | { kind: 'notPhone'; value: string }
  | { kind: 'twoDurations' }
  /** The time phrase cannot be read as a time (`time.ts`'s `WhenFault`). */
  | { kind: 'when'; fault: WhenFault };

export type ConferenceCommand =
  | { kind: 'help' }
  | { kind: 'list'; filter: 'upcoming' | 'past' | 'all'; search?: string }
  | { kind: 'show'; ref: string }
  | { kind: 'delete'; ref: string }
  | { kind: 'digest'; args: string }
  /** `/conference admin …`: platform admins' tools (`doctor`). */
  | { kind: 'admin'; args: string }
  /** `/conference password [login]`: the platform's reset e-mail (one's own without a login). */
  | { kind: 'password'; login?: string }
  /** `/conference media [filters]`: the media library modal (filters: `domain/media.ts`). */
  | { kind: 'media'; args: string }
  | { kind: 'create'; request: ConferenceRequestText }
  | { kind: 'usage'; error: string; problem: ConferenceUsageProblem };

/** Why the words of a verb could not be read (`error` says it in English; the help, in the person's language). */
export type ConferenceUsageProblem = { kind: 'password' } | { kind: 'ref'; verb: string };

const quoteOpen = /["“”„«]/;
const quoteClose: Record<string, RegExp> = { '"': /"/, '“': /[”"]/, '”': /[”"]/, '„': /[“”"]/, '«': /»/ };

/** Splits on spaces, keeping quoted names whole; `quoted` marks them. */
interface Token {
  text: string;
  quoted: boolean;
}

function tokenize(text: string): { tokens: Token[]; unclosed: boolean } {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (/\s/.test(ch) || ch === ',' || ch === ';') {
      i++;
      continue;
    }
    if (quoteOpen.test(ch)) {
      const rest = text.slice(i + 1);
      const close = (quoteClose[ch] ?? /"/).exec(rest);
      if (!close) return { tokens: [...tokens, { text: rest.trim(), quoted: true }], unclosed: true };
      tokens.push({ text: rest.slice(0, close.index).trim(), quoted: true });
      i += close.index + 2;
      continue;
    }
    let j = i;
    while (j < text.length && !/[\s,;]/.test(text[j] as string) && !quoteOpen.test(text[j] as string)) j++;
    tokens.push({ text: text.slice(i, j), quoted: false });
    i = j;
  }
  return { tokens, unclosed: false };
}

const mention = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/;
const mailto = /^<mailto:([^|>]+)(?:\|[^>]*)?>$/;
const tel = /^<tel:([^|>]+)(?:\|[^>]*)?>$/;

const isEmail = (s: string) => email.safeParse(s).success;
const asPhone = (s: string) => {
  const r = phone.safeParse(s);
  return r.success ? r.data : undefined;
};

/** Reads the words of a create command: participants, mentions, a time phrase, a duration, a quoted name. */
export function parseConferenceRequest(text: string): ConferenceRequestText {
  const out: ConferenceRequestText = { participants: [], mentions: [], unknown: [], problems: [] };
  const { tokens, unclosed } = tokenize(text);
  if (unclosed) out.problems.push({ kind: 'unclosedQuote' });
  const when: string[] = [];
  let whenDone = false;
  const endWhen = () => {
    if (when.length) whenDone = true;
  };
  for (let k = 0; k < tokens.length; k++) {
    const { text: raw, quoted } = tokens[k] as Token;
    const next = tokens[k + 1];
    if (quoted) {
      endWhen();
      if (out.name !== undefined) out.problems.push({ kind: 'twoNames' });
      else if (raw) out.name = raw;
      continue;
    }
    const m = mention.exec(raw);
    const mail = mailto.exec(raw)?.[1];
    const phoneText = tel.exec(raw)?.[1] ?? raw;
    // "in 2 hours", "45 min": a number and its unit may come as two words.
    const unitAfter = (a: Token | undefined, b: Token | undefined) =>
      a && b && !a.quoted && !b.quoted && /^\d+$/.test(a.text) && /^[a-z]+$/i.test(b.text)
        ? parseDuration(a.text + b.text)
        : undefined;
    // "in 2h", "in 2 hours": the words after "in" that make a duration.
    const inPhrase = (at: number) => {
      const a = tokens[at + 1];
      if (!a || a.quoted) return undefined;
      if (unitAfter(a, tokens[at + 2])?.ok) return `${a.text} ${tokens[at + 2]?.text}`;
      return parseDuration(a.text).ok ? a.text : undefined;
    };
    if (m?.[1]) {
      endWhen();
      if (!out.mentions.includes(m[1])) out.mentions.push(m[1]);
    } else if (mail || raw.includes('@')) {
      endWhen();
      const e = mail ?? raw;
      if (!isEmail(e)) out.problems.push({ kind: 'notEmail', value: e });
      else if (!out.participants.includes(e)) out.participants.push(e);
    } else if (raw.toLowerCase() === 'in' && when.length === 0 && !whenDone && inPhrase(k)) {
      const phrase = inPhrase(k) as string;
      when.push('in', phrase);
      k += phrase.includes(' ') ? 2 : 1;
      whenDone = true;
    } else if (isWhenWord(raw)) {
      if (whenDone) out.problems.push({ kind: 'twoTimes', value: raw });
      else when.push(raw);
    } else if (phoneText.startsWith('+') || /^[\d().-]{7,}$/.test(phoneText)) {
      endWhen();
      const p = asPhone(phoneText);
      if (!p) out.problems.push({ kind: 'notPhone', value: phoneText });
      else if (!out.participants.includes(p)) out.participants.push(p);
    } else {
      endWhen();
      const single = parseDuration(raw);
      const pair = single.ok ? undefined : unitAfter(tokens[k], next);
      const d = single.ok ? single : pair;
      if (d?.ok) {
        if (pair) k++;
        if (out.duration !== undefined) out.problems.push({ kind: 'twoDurations' });
        else out.duration = d.value;
      } else out.unknown.push(raw);
    }
  }
  if (when.length) {
    out.when = when.join(' ');
    const fault = whenFault(out.when);
    if (fault) out.problems.push({ kind: 'when', fault });
  }
  return out;
}

/** True when the text says enough to create without asking: someone to invite, a time, nothing unread. */
export function isCompleteRequest(r: ConferenceRequestText): boolean {
  return (
    r.participants.length + r.mentions.length > 0 &&
    r.when !== undefined &&
    r.unknown.length === 0 &&
    r.problems.length === 0
  );
}

/** A request written back as command text, which `parseConferenceRequest` reads to the same request. */
export function formatConferenceRequest(r: ConferenceRequestText): string {
  return [
    ...r.participants,
    ...r.mentions.map((id) => `<@${id}>`),
    ...(r.when ? [r.when] : []),
    ...(r.duration !== undefined ? [formatDuration(r.duration)] : []),
    ...(r.name !== undefined ? [`"${r.name}"`] : []),
  ].join(' ');
}

/** The verbs a word names (not `create`, which is any other text, nor `usage`, a reading's failure). */
export type ConferenceVerbKind = Exclude<ConferenceCommand['kind'], 'create' | 'usage'>;

/**
 * The first words `/conference` knows, lower-case, to their verb: the command's verb table gives them
 * (`conferenceWords` in slack/commands/conference.ts), English and French, so no second list is kept here.
 */
export type ConferenceWords = ReadonlyMap<string, ConferenceVerbKind>;

/**
 * Reads the whole `/conference` text: a verb of `words` (`list`, `liste`…), or the words of a
 * conference to create.
 */
export function parseConferenceCommand(text: string, words: ConferenceWords): ConferenceCommand {
  const trimmed = text.trim();
  const [first = '', ...rest] = trimmed.split(/\s+/);
  const verb = first.toLowerCase();
  const arg = rest.join(' ').trim();
  const kind = words.get(verb);
  if (kind === undefined) return { kind: 'create', request: parseConferenceRequest(trimmed) };
  switch (kind) {
    case 'help':
      return { kind: 'help' };
    case 'digest':
      return { kind: 'digest', args: arg };
    case 'admin':
      return { kind: 'admin', args: arg };
    case 'password':
      if (/\s/.test(arg))
        return {
          kind: 'usage',
          error: '`/conference password` takes one login, or none for your own.',
          problem: { kind: 'password' },
        };
      return arg ? { kind: 'password', login: arg } : { kind: 'password' };
    case 'media':
      return { kind: 'media', args: arg };
    case 'list': {
      const f = arg.toLowerCase();
      if (f === '' || f === 'upcoming') return { kind: 'list', filter: 'upcoming' };
      if (f === 'past') return { kind: 'list', filter: 'past' };
      if (f === 'all') return { kind: 'list', filter: 'all' };
      return { kind: 'list', filter: 'all', search: arg };
    }
    default: {
      const ref = arg.replace(/^#/, '');
      if (!ref || /\s/.test(ref))
        return {
          kind: 'usage',
          error: `\`/conference ${verb}\` needs one conference id or room name.`,
          problem: { kind: 'ref', verb },
        };
      return { kind, ref };
    }
  }
}
