/**
 * Block Kit blocks as Slack lays them out, for messages, modals and the App Home alike.
 * https://api.slack.com/reference/block-kit/blocks
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Container, Json } from './api.js';
import { Element, ImageElement, type Surface } from './elements.js';
import { emojiNamed } from './emoji.js';
import { blockIdOf, type ElementState, type StateValues, stateValues } from './state-values.js';
import { ExternalLink, plainOf, TextObject } from './text.js';
import { useEnv } from './use-env.js';

const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

/** Stable DOM ids from a payload's ids (which may hold any character). */
const domId = (...parts: string[]) => parts.join('-').replace(/[^A-Za-z0-9_-]/g, '_');

function Section({ block, blockId, surface }: BlockProps) {
  const accessory = block.accessory as Json | undefined;
  return (
    <div class="bk-section">
      <div class="bk-section-body">
        {block.text ? (
          <div class="bk-section-text">
            <TextObject obj={block.text} />
          </div>
        ) : null}
        {block.fields ? (
          <div class="bk-fields">
            {list(block.fields).map((f, i) => (
              <div key={i} class="bk-field">
                <TextObject obj={f} />
              </div>
            ))}
          </div>
        ) : null}
      </div>
      {accessory ? (
        <div class="bk-accessory">
          {accessory.type === 'image' ? (
            <ImageElement el={accessory} />
          ) : (
            <Element el={accessory} blockId={blockId} surface={surface} dispatch />
          )}
        </div>
      ) : null}
    </div>
  );
}

function Context({ block }: { block: Json }) {
  return (
    <div class="bk-context">
      {list(block.elements).map((el, i) =>
        el.type === 'image' ? (
          <ImageElement key={i} el={el} small />
        ) : (
          <span key={i} class="bk-context-text">
            <TextObject obj={el} />
          </span>
        ),
      )}
    </div>
  );
}

function Input({ block, blockId, surface }: BlockProps) {
  const el = (block.element as Json | undefined) ?? {};
  const inputId = domId(surface.key, blockId, String(el.action_id));
  const labelId = `${inputId}-label`;
  const error = surface.errors?.[blockId];
  const grouped = el.type === 'checkboxes' || el.type === 'radio_buttons';
  return (
    <div class={`bk-input${error ? ' has-error' : ''}`}>
      <label id={labelId} for={grouped ? undefined : inputId} class="bk-label">
        {plainOf(block.label)}
        {block.optional ? <span class="optional"> (optional)</span> : null}
      </label>
      <Element
        el={el}
        blockId={blockId}
        surface={surface}
        dispatch={block.dispatch_action === true}
        inputId={inputId}
        labelId={labelId}
      />
      {error ? (
        <div class="bk-error" role="alert">
          {error}
        </div>
      ) : null}
      {block.hint ? (
        <div class="bk-hint">
          <TextObject obj={block.hint} />
        </div>
      ) : null}
    </div>
  );
}

/** One rich_text element run (text with its style, link, mention, emoji, date). */
function RichRun({ el }: { el: Json }) {
  const env = useEnv();
  const style = (el.style as Json | undefined) ?? {};
  let node: ComponentChildren = String(el.text ?? '');
  if (el.type === 'link')
    node = <ExternalLink href={String(el.url)}>{String(el.text ?? el.url)}</ExternalLink>;
  else if (el.type === 'user')
    node = <span class="mention">@{env.person(String(el.user_id))?.realName ?? String(el.user_id)}</span>;
  else if (el.type === 'channel')
    node = <span class="mention">#{env.channelName(String(el.channel_id)) ?? String(el.channel_id)}</span>;
  else if (el.type === 'emoji') node = emojiNamed(String(el.name));
  else if (el.type === 'broadcast') node = <span class="mention broadcast">@{String(el.range)}</span>;
  if (style.code) node = <code class="md-code">{node}</code>;
  if (style.strike) node = <s>{node}</s>;
  if (style.italic) node = <i>{node}</i>;
  if (style.bold) node = <b>{node}</b>;
  return <>{node}</>;
}

const runs = (el: Json) => list(el.elements).map((r, i) => <RichRun key={i} el={r} />);

function RichText({ block }: { block: Json }) {
  return (
    <div class="bk-rich">
      {list(block.elements).map((el, i) => {
        switch (el.type) {
          case 'rich_text_list': {
            const Tag = el.style === 'ordered' ? 'ol' : 'ul';
            return (
              <Tag key={i} class="rt-list" style={{ marginLeft: `${Number(el.indent ?? 0) * 24}px` }}>
                {list(el.elements).map((item, j) => (
                  <li key={j}>{runs(item)}</li>
                ))}
              </Tag>
            );
          }
          case 'rich_text_quote':
            return (
              <blockquote key={i} class="md-quote">
                {runs(el)}
              </blockquote>
            );
          case 'rich_text_preformatted':
            return (
              <pre key={i} class="md-pre">
                {runs(el)}
              </pre>
            );
          default:
            return (
              <div key={i} class="md-para">
                {runs(el)}
              </div>
            );
        }
      })}
    </div>
  );
}

interface BlockProps {
  block: Json;
  blockId: string;
  surface: Surface;
}

function Block({ block, blockId, surface }: BlockProps) {
  switch (block.type) {
    case 'header':
      return (
        <div class="bk-header">
          <TextObject obj={block.text} />
        </div>
      );
    case 'section':
      return <Section block={block} blockId={blockId} surface={surface} />;
    case 'context':
      return <Context block={block} />;
    case 'actions':
      return (
        <div class="bk-actions">
          {list(block.elements).map((el, i) => (
            <Element key={String(el.action_id ?? i)} el={el} blockId={blockId} surface={surface} dispatch />
          ))}
        </div>
      );
    case 'divider':
      return <hr class="bk-divider" />;
    case 'image':
      return (
        <figure class="bk-image">
          {block.title ? (
            <figcaption>
              <TextObject obj={block.title} />
            </figcaption>
          ) : null}
          <img src={imageSource(block)} alt={String(block.alt_text ?? '')} />
        </figure>
      );
    case 'input':
      return <Input block={block} blockId={blockId} surface={surface} />;
    case 'rich_text':
      return <RichText block={block} />;
    default:
      return <div class="unsupported">[{String(block.type)} block]</div>;
  }
}

/** A list of blocks on one surface. */
export function Blocks({ blocks, surface }: { blocks: Json[]; surface: Surface }) {
  return (
    <div class="bk-blocks">
      {blocks.map((block, i) => {
        const blockId = blockIdOf(block, i);
        return <Block key={blockId} block={block} blockId={blockId} surface={surface} />;
      })}
    </div>
  );
}

/**
 * The blocks of a message (or an ephemeral, or the App Home): the values of its selects and pickers
 * are the page's own, sent with each action, as Slack's client keeps them — until the app replaces
 * the blocks (chat.update, views.publish), which starts them afresh from the new initial values.
 */
export function SurfaceBlocks({
  blocks,
  container,
  surfaceKey,
}: {
  blocks: Json[];
  container: Container;
  surfaceKey: string;
}) {
  const signature = JSON.stringify(blocks);
  const [kept, setKept] = useState<{ signature: string; changes: StateValues }>({ signature, changes: {} });
  const changes = kept.signature === signature ? kept.changes : {};
  const surface: Surface = {
    container,
    key: surfaceKey,
    values: stateValues(blocks, changes),
    onValue: (blockId: string, actionId: string, state: ElementState) =>
      setKept({ signature, changes: { ...changes, [blockId]: { ...changes[blockId], [actionId]: state } } }),
  };
  return <Blocks blocks={blocks} surface={surface} />;
}

/**
 * An image block's picture: its `image_url`, or the file the bot uploaded (`slack_file: { id }`, the
 * digest's chart), served by the playground from the Slack double's uploads.
 */
function imageSource(block: { image_url?: unknown; slack_file?: unknown }): string {
  if (typeof block.image_url === 'string') return block.image_url;
  const file = block.slack_file as { id?: unknown; url?: unknown } | undefined;
  if (typeof file?.id === 'string') return `/files/${encodeURIComponent(file.id)}`;
  return typeof file?.url === 'string' ? file.url : '';
}
