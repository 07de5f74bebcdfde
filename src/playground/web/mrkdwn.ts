/**
 * Slack's mrkdwn read into a small tree the page renders as text nodes: outside strings never reach
 * the DOM as HTML. The rules follow https://api.slack.com/reference/surfaces/formatting: the three
 * escaped characters, `<…>` tokens (links, mentions, dates), `*bold*`, `_italic_`, `~strike~`,
 * `` `code` ``, ``` ```pre``` ``` and `>` quotes at the start of a line.
 */

/** A run of text inside a paragraph or a quote. */
export type Inline =
  | { t: 'text'; text: string }
  | { t: 'bold' | 'italic' | 'strike'; children: Inline[] }
  | { t: 'code'; text: string }
  | { t: 'link'; url: string; label: string }
  | { t: 'user'; id: string }
  | { t: 'channel'; id: string; name?: string }
  | { t: 'broadcast'; name: string }
  | { t: 'date'; epoch: number; format: string; fallback: string; link?: string }
  | { t: 'br' };

/** A paragraph, a quote (its lines without the `>`), or a preformatted block kept verbatim. */
export type Block =
  | { t: 'para'; children: Inline[] }
  | { t: 'quote'; children: Inline[] }
  | { t: 'pre'; text: string };

/** The three characters Slack escapes in message text, back to what a person sees. */
export function unescapeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Reads a mrkdwn text into blocks. */
export function parseMrkdwn(text: string): Block[] {
  const blocks: Block[] = [];
  // Preformatted spans first: nothing inside them is formatting, and they may cross lines.
  const parts = text.split('```');
  // An unclosed ``` stays as typed.
  if (parts.length % 2 === 0) {
    const tail = parts.pop() ?? '';
    parts.push(`${parts.pop() ?? ''}\`\`\`${tail}`);
  }
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      blocks.push({ t: 'pre', text: unescapeEntities(part.replace(/^\n/, '').replace(/\n$/, '')) });
      return;
    }
    // A block sits on its own lines: the line breaks around it are not blank lines.
    let plain = i > 0 ? part.replace(/^\n/, '') : part;
    if (i < parts.length - 1) plain = plain.replace(/\n$/, '');
    if (plain) blocks.push(...linesToBlocks(plain));
  });
  return blocks.filter((b) => b.t === 'pre' || b.children.length > 0);
}

const quoteMark = /^(?:&gt;|>) ?/;

/** Groups lines into paragraphs and quotes (consecutive `>` lines make one quote). */
function linesToBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let current: { t: 'para' | 'quote'; lines: string[] } | undefined;
  const flush = () => {
    if (current) blocks.push({ t: current.t, children: joinLines(current.lines) });
    current = undefined;
  };
  for (const line of text.split('\n')) {
    const quoted = quoteMark.test(line);
    const kind = quoted ? 'quote' : 'para';
    if (current?.t !== kind) {
      flush();
      current = { t: kind, lines: [] };
    }
    current.lines.push(quoted ? line.replace(quoteMark, '') : line);
  }
  flush();
  return blocks;
}

function joinLines(lines: string[]): Inline[] {
  const out: Inline[] = [];
  lines.forEach((line, i) => {
    if (i > 0) out.push({ t: 'br' });
    out.push(...parseInline(line));
  });
  return out;
}

const styles = { '*': 'bold', _: 'italic', '~': 'strike' } as const;
const wordChar = /[\p{L}\p{N}]/u;

/** Inline formatting of one line. */
export function parseInline(line: string): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const pushText = () => {
    if (text) out.push({ t: 'text', text: unescapeEntities(text) });
    text = '';
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (c === '`') {
      const end = line.indexOf('`', i + 1);
      if (end > i + 1) {
        pushText();
        out.push({ t: 'code', text: unescapeEntities(line.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    } else if (c === '<') {
      const end = line.indexOf('>', i + 1);
      if (end > i + 1) {
        pushText();
        out.push(angleToken(line.slice(i + 1, end)));
        i = end + 1;
        continue;
      }
    } else if (c === '*' || c === '_' || c === '~') {
      const end = closingMark(line, i, c);
      if (end > 0) {
        pushText();
        out.push({ t: styles[c], children: parseInline(line.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    text += c;
    i += 1;
  }
  pushText();
  return out;
}

/**
 * Where the mark opened at `start` closes, or -1. As in Slack, a mark opens after a non-word
 * character and before a non-space, and closes after a non-space and before a non-word character
 * (so `snake_case_name` and `2*3*4` stay as typed).
 */
function closingMark(line: string, start: number, mark: string): number {
  const before = line[start - 1];
  const after = line[start + 1];
  if ((before !== undefined && wordChar.test(before)) || after === undefined || /\s/.test(after)) return -1;
  for (let j = line.indexOf(mark, start + 2); j > 0; j = line.indexOf(mark, j + 1)) {
    const prev = line[j - 1] as string;
    const next = line[j + 1];
    if (!/\s/.test(prev) && (next === undefined || !wordChar.test(next))) return j;
  }
  return -1;
}

/** One `<…>` token: a mention, a channel, a special mention, a date, or a link. */
function angleToken(body: string): Inline {
  const bar = body.indexOf('|');
  const head = bar >= 0 ? body.slice(0, bar) : body;
  const label = bar >= 0 ? unescapeEntities(body.slice(bar + 1)) : undefined;
  if (head.startsWith('@')) return { t: 'user', id: head.slice(1) };
  if (head.startsWith('#'))
    return label ? { t: 'channel', id: head.slice(1), name: label } : { t: 'channel', id: head.slice(1) };
  if (head.startsWith('!date^')) {
    const [, epoch = '', format = '', link] = head.split('^');
    const date: Inline = { t: 'date', epoch: Number(epoch), format, fallback: label ?? '' };
    return link ? { ...date, link: unescapeEntities(link) } : date;
  }
  if (head.startsWith('!subteam^')) return { t: 'text', text: label ?? '@group' };
  if (head.startsWith('!')) return { t: 'broadcast', name: head.slice(1) };
  const url = unescapeEntities(head);
  return { t: 'link', url, label: label ?? url.replace(/^mailto:/, '') };
}
