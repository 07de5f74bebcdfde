/**
 * Text objects and mrkdwn as Slack shows them. Every outside string lands in a text node or a
 * checked `href`: nothing here sets HTML.
 */
import type { ComponentChildren } from 'preact';
import type { Json } from './api.js';
import { formatSlackDate } from './dates.js';
import { emojify } from './emoji.js';
import { safeHref } from './links.js';
import { type Inline, parseMrkdwn } from './mrkdwn.js';
import { useEnv } from './use-env.js';

export function ExternalLink({ href, children }: { href: string; children: ComponentChildren }) {
  const safe = safeHref(href);
  if (!safe) return <span>{children}</span>;
  return (
    <a href={safe} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

function InlineNode({ node }: { node: Inline }) {
  const env = useEnv();
  switch (node.t) {
    case 'text':
      return <>{emojify(node.text)}</>;
    case 'br':
      return <br />;
    case 'bold':
      return <b>{node.children.map(renderInline)}</b>;
    case 'italic':
      return <i>{node.children.map(renderInline)}</i>;
    case 'strike':
      return <s>{node.children.map(renderInline)}</s>;
    case 'code':
      return <code class="md-code">{node.text}</code>;
    case 'link':
      return <ExternalLink href={node.url}>{node.label}</ExternalLink>;
    case 'user': {
      const name =
        node.id === env.state.bot.id ? env.state.bot.name : (env.person(node.id)?.realName ?? node.id);
      return <span class="mention">@{name}</span>;
    }
    case 'channel':
      return <span class="mention">#{env.channelName(node.id) ?? node.name ?? node.id}</span>;
    case 'broadcast':
      return <span class="mention broadcast">@{node.name.split('|')[0]}</span>;
    case 'date': {
      const shown = Number.isFinite(node.epoch)
        ? formatSlackDate(node.epoch, node.format, env.zone, env.now(), env.as?.locale)
        : node.fallback;
      return (
        <time dateTime={new Date(node.epoch * 1000).toISOString()} title={node.fallback}>
          {node.link ? <ExternalLink href={node.link}>{shown}</ExternalLink> : shown}
        </time>
      );
    }
  }
}

const renderInline = (node: Inline, i: number) => <InlineNode key={i} node={node} />;

/** A mrkdwn text: paragraphs, quotes and preformatted blocks. */
export function Mrkdwn({ text }: { text: string }) {
  return (
    <>
      {parseMrkdwn(text).map((block, i) => {
        if (block.t === 'pre')
          return (
            <pre key={i} class="md-pre">
              {block.text}
            </pre>
          );
        const Tag = block.t === 'quote' ? 'blockquote' : 'div';
        return (
          <Tag key={i} class={block.t === 'quote' ? 'md-quote' : 'md-para'}>
            {block.children.map(renderInline)}
          </Tag>
        );
      })}
    </>
  );
}

/** A Block Kit text object: mrkdwn, or plain text (with `:emoji:` shortcodes when it allows them). */
export function TextObject({ obj }: { obj: unknown }) {
  if (!obj || typeof obj !== 'object') return null;
  const { type, text, emoji } = obj as Json;
  if (typeof text !== 'string') return null;
  if (type === 'mrkdwn') return <Mrkdwn text={text} />;
  return <>{emoji === false ? text : emojify(text)}</>;
}

/** A text object's words alone (for `aria-label`s, `<option>`s and titles, which take no markup). */
export function plainOf(obj: unknown): string {
  if (!obj || typeof obj !== 'object') return '';
  const text = (obj as Json).text;
  return typeof text === 'string' ? emojify(text) : '';
}
