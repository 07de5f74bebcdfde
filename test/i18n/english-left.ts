/*
 * "No English left in a French render": the words a French text never has, looked for in what Slack
 * shows of a payload (its fallback text, every plain_text and mrkdwn text object, alt texts), with what
 * is not prose taken out first (`code` as people type it, links and Slack tokens, :emoji:).
 */

/** English words that are not French words too (no `on`, `a`, `par`, `plus`, `date`, `message`…). */
const englishOnly = new Set(
  (
    'the and you your yours with this that these those is are was were will would has have had not ' +
    'from when what which who whom there here of to in for by at an or be been being can cannot could ' +
    'please click see yes none no nothing any every its it they their them our we us he she his her ' +
    'should must may might do does did done into onto out about after before than then now new open ' +
    'opened close closed created edited deleted shared posted moved took takes taken ready today ' +
    'tomorrow yesterday hours minutes days week weeks more less show shows list help try again yet ' +
    'only also just how why where each other'
  ).split(' '),
);

/** The texts Slack shows of a payload (message, modal, Home view, options, unfurl). */
export function shownTexts(v: unknown, out: string[] = [], key = ''): string[] {
  if (typeof v === 'string') {
    if (['text', 'alt_text', 'fallback', 'pretext', 'footer'].includes(key)) out.push(v);
  } else if (Array.isArray(v)) for (const x of v) shownTexts(x, out, key);
  else if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    for (const [k, x] of Object.entries(o)) shownTexts(x, out, k);
  }
  return out;
}

/** A text with what is not prose taken out: `code`, Slack tokens and links, URLs, :emoji:. */
const prose = (s: string) =>
  s
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/:[a-z0-9_+-]+:/g, ' ');

/** The English words left in what `payload` shows, once each `allowed` text (outside data) is taken out. */
export function englishLeft(payload: unknown, allowed: readonly string[] = []): string[] {
  const found = new Set<string>();
  for (let text of shownTexts(payload)) {
    for (const a of allowed) text = text.split(a).join(' ');
    for (const word of prose(text)
      .toLowerCase()
      .split(/[^a-z’']+/))
      if (englishOnly.has(word.replace(/['’]s$/, ''))) found.add(word);
  }
  return [...found].sort();
}
