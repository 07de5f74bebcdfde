/**
 * Messages as Slack lists them: sender, time, body (blocks, or the text when there are none),
 * "(edited)", attachments, thread replies, ephemerals, and the message shortcuts menu.
 */
import { Fragment } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { Ephemeral, FileRef, Json, Message } from './api.js';
import { SurfaceBlocks } from './blockkit.js';
import { formatSlackDate } from './dates.js';
import { emojiNamed } from './emoji.js';
import { Mrkdwn } from './text.js';
import { useEnv } from './use-env.js';
import { useMenu } from './use-menu.js';

/** A message or an ephemeral, in the order of their timestamps. */
export type Entry = { kind: 'message'; m: Message } | { kind: 'ephemeral'; m: Ephemeral };

export function byTs(a: Entry, b: Entry): number {
  return Number(a.m.ts) - Number(b.m.ts);
}

function clockTime(ts: string, zone: string): string {
  return new Date(Number(ts) * 1000).toLocaleTimeString('en-US', {
    timeZone: zone,
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** The hour alone, as Slack shows it beside a folded message. */
const shortTime = (ts: string, zone: string) => clockTime(ts, zone).replace(/\s?[AP]M$/, '');

const palette = ['#e8912d', '#2bac76', '#1d9bd1', '#e01e5a', '#7c3085', '#4a154b'];

function Avatar({ id, label, bot }: { id: string; label: string; bot: boolean }) {
  const hue = palette[[...id].reduce((h, c) => h + c.charCodeAt(0), 0) % palette.length];
  const initials = label
    .split(/\s+/)
    .map((w) => w[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <div
      class={`avatar${bot ? ' bot' : ''}`}
      style={{ background: bot ? undefined : hue }}
      aria-hidden="true"
    >
      {bot ? '📹' : initials}
    </div>
  );
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function FileCard({ file }: { file: FileRef }) {
  const image = file.mimetype.startsWith('image/');
  return (
    <div class="file">
      {image ? (
        <a href={file.url} target="_blank" rel="noopener noreferrer">
          <img class="file-preview" src={file.url} alt={file.title ?? file.name} />
        </a>
      ) : null}
      <div class="file-row">
        <span class="file-icon" aria-hidden="true">
          {image ? '🖼️' : '📄'}
        </span>
        <span class="file-meta">
          <a class="file-name" href={file.url} target="_blank" rel="noopener noreferrer" download={file.name}>
            {file.title ?? file.name}
          </a>
          <span class="file-size">
            {file.name !== (file.title ?? file.name) ? `${file.name} · ` : ''}
            {formatSize(file.size)}
          </span>
        </span>
      </div>
    </div>
  );
}

/** The emoji the reaction menu offers: confdesk's defaults (🎫 👀 ✅) and a plain 👍. */
const reactionChoices = ['ticket', 'eyes', 'white_check_mark', '+1'];

/** "Add reaction": the acting person reacts to the message (a `reaction_added` event for the bot). */
function AddReaction({ message }: { message: Message }) {
  const env = useEnv();
  const { open, setOpen, ref } = useMenu();
  return (
    <div class={`msg-tools react-tools${open ? ' open' : ''}`} ref={ref}>
      <button
        type="button"
        class="tool"
        aria-label="Add reaction"
        title="Add reaction"
        onClick={() => setOpen(!open)}
      >
        ☺+
      </button>
      {open && (
        <div class="menu right reaction-menu" role="menu">
          {reactionChoices.map((name) => (
            <button
              type="button"
              role="menuitem"
              key={name}
              title={`:${name}:`}
              onClick={() => {
                setOpen(false);
                void env.react(message.channel, message.ts, name);
              }}
            >
              {emojiNamed(name)} <span class="reaction-name">:{name}:</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** The reactions under a message, as Slack shows them: the emoji and how many; a click adds yours. */
function Reactions({ message }: { message: Message }) {
  const env = useEnv();
  if (!message.reactions?.length) return null;
  return (
    <div class="reactions">
      {message.reactions.map((r) => (
        <button
          type="button"
          key={r.name}
          class={`reaction${env.as && r.users.includes(env.as.id) ? ' mine' : ''}`}
          title={`${r.users.map((u) => env.person(u)?.realName ?? u).join(', ')} reacted with :${r.name}:`}
          onClick={() => void env.react(message.channel, message.ts, r.name)}
        >
          {emojiNamed(r.name)} {r.users.length}
        </button>
      ))}
    </div>
  );
}

/** The "⋯ More actions" menu of a message: the app's message shortcuts. */
function MoreActions({
  message,
  onShortcut,
}: {
  message: Message;
  onShortcut: (callbackId: string, m: Message) => void;
}) {
  const env = useEnv();
  const { open, setOpen, ref } = useMenu();
  const shortcuts = env.state.shortcuts.filter((s) => s.type === 'message');
  return (
    <div class={`msg-tools${open ? ' open' : ''}`} ref={ref}>
      <button
        type="button"
        class="tool"
        aria-label="More actions"
        title="More actions"
        onClick={() => setOpen(!open)}
      >
        ⋯
      </button>
      {open && (
        <div class="menu right" role="menu">
          <div class="menu-title">{env.state.bot.name}</div>
          {shortcuts.map((s) => (
            <button
              type="button"
              role="menuitem"
              key={s.callback_id}
              title={s.description}
              onClick={() => {
                setOpen(false);
                onShortcut(s.callback_id, message);
              }}
            >
              {s.name}
            </button>
          ))}
          {shortcuts.length === 0 ? <div class="menu-empty">No message shortcuts</div> : null}
        </div>
      )}
    </div>
  );
}

interface ItemProps {
  entry: Entry;
  /** The previous entry shown, to fold the header of a run of one sender's messages, as Slack does. */
  previous: Entry | undefined;
  replies?: Message[];
  inThread?: boolean;
  onShortcut: (callbackId: string, m: Message) => void;
  onDismiss: (id: string) => void;
}

const sender = (e: Entry, botId: string) => (e.kind === 'ephemeral' ? botId : e.m.user);

export function MessageItem({ entry, previous, replies, inThread, onShortcut, onDismiss }: ItemProps) {
  const env = useEnv();
  const botId = env.state.bot.id;
  const user = sender(entry, botId);
  const isBot = user === botId;
  const person = env.person(user);
  const name = isBot ? env.state.bot.name : (person?.realName ?? user);
  const folded =
    entry.kind === 'message' &&
    previous?.kind === 'message' &&
    sender(previous, botId) === user &&
    Number(entry.m.ts) - Number(previous.m.ts) < 300;
  const m = entry.m;
  const blocks = Array.isArray(m.blocks) && m.blocks.length > 0 ? (m.blocks as Json[]) : undefined;
  const container =
    entry.kind === 'ephemeral'
      ? ({ type: 'ephemeral', id: entry.m.id } as const)
      : ({ type: 'message', channel: m.channel, ts: m.ts } as const);
  const surfaceKey = entry.kind === 'ephemeral' ? `e-${entry.m.id}` : `m-${m.channel}-${m.ts}`;
  const time = clockTime(m.ts, env.zone);
  return (
    <div
      class={`msg${folded ? ' folded' : ''}${entry.kind === 'ephemeral' ? ' ephemeral' : ''}`}
      data-ts={m.ts}
    >
      <div class="msg-gutter">
        {folded ? (
          <span class="msg-hover-time">{shortTime(m.ts, env.zone)}</span>
        ) : (
          <Avatar id={user} label={name} bot={isBot} />
        )}
      </div>
      <div class="msg-main">
        {entry.kind === 'ephemeral' ? (
          <div class="only-you">
            <span aria-hidden="true">👁️</span> Only visible to you
          </div>
        ) : null}
        {folded ? null : (
          <div class="msg-head">
            <span class="msg-name">{name}</span>
            {isBot ? <span class="app-tag">APP</span> : null}
            <span class="msg-time" title={new Date(Number(m.ts) * 1000).toString()}>
              {time}
            </span>
          </div>
        )}
        <div class="msg-body">
          {blocks ? (
            // An update of the message starts its selects and pickers afresh from the new blocks.
            <SurfaceBlocks
              key={JSON.stringify(blocks)}
              blocks={blocks}
              container={container}
              surfaceKey={surfaceKey}
            />
          ) : m.text ? (
            <div class="msg-text">
              <Mrkdwn text={m.text} />
            </div>
          ) : null}
          {entry.kind === 'message' && entry.m.edited ? <span class="edited">(edited)</span> : null}
        </div>
        {entry.kind === 'message' && entry.m.unfurls?.length ? (
          <div class="unfurls">
            {entry.m.unfurls.map((u) => (
              <div class="unfurl" key={u.url} data-url={u.url}>
                <SurfaceBlocks
                  key={JSON.stringify(u.blocks)}
                  blocks={u.blocks as Json[]}
                  container={{ type: 'unfurl', channel: m.channel, ts: m.ts, url: u.url }}
                  surfaceKey={`u-${m.channel}-${m.ts}-${u.url}`}
                />
              </div>
            ))}
          </div>
        ) : null}
        {entry.kind === 'message' && entry.m.files?.length ? (
          <div class="files">
            {entry.m.files.map((f) => (
              <FileCard key={f.id} file={f} />
            ))}
          </div>
        ) : null}
        {entry.kind === 'message' ? <Reactions message={entry.m} /> : null}
        {entry.kind === 'ephemeral' ? (
          <button type="button" class="link-btn dismiss" onClick={() => onDismiss(entry.m.id)}>
            Dismiss
          </button>
        ) : null}
        {!inThread && replies && replies.length > 0 ? (
          <button type="button" class="replies" onClick={() => env.openThread(m.channel, m.ts)}>
            {replies.length === 1 ? '1 reply' : `${replies.length} replies`}
            <span class="replies-last">
              Last reply {clockTime(replies[replies.length - 1]?.ts ?? m.ts, env.zone)}
            </span>
          </button>
        ) : null}
      </div>
      {entry.kind === 'message' ? <AddReaction message={entry.m} /> : null}
      {entry.kind === 'message' ? <MoreActions message={entry.m} onShortcut={onShortcut} /> : null}
    </div>
  );
}

/** A list of entries that stays scrolled to the newest one unless the person scrolled up. */
export function EntryList({
  entries,
  repliesOf,
  inThread,
  onShortcut,
  onDismiss,
  label,
  empty,
}: {
  entries: Entry[];
  repliesOf?: (m: Message) => Message[];
  inThread?: boolean;
  onShortcut: (callbackId: string, m: Message) => void;
  onDismiss: (id: string) => void;
  label: string;
  empty?: string;
}) {
  const env = useEnv();
  const dayOf = (ts: string) =>
    formatSlackDate(Math.floor(Number(ts)), '{date_long_pretty}', env.zone, env.now());
  const ref = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const count = entries.length;
  useEffect(() => {
    const el = ref.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [count]);
  return (
    <div
      class="log"
      role="log"
      aria-label={label}
      ref={ref}
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
    >
      {count === 0 && empty ? <div class="log-empty">{empty}</div> : null}
      {entries.map((entry, i) => {
        const previous = entries[i - 1];
        const day = dayOf(entry.m.ts);
        const newDay = !previous || dayOf(previous.m.ts) !== day;
        return (
          <Fragment key={entry.kind === 'ephemeral' ? `e-${entry.m.id}` : `m-${entry.m.ts}`}>
            {newDay && !inThread ? (
              <div class="day">
                <span>{day}</span>
              </div>
            ) : null}
            <MessageItem
              entry={entry}
              previous={newDay ? undefined : previous}
              {...(repliesOf && entry.kind === 'message' ? { replies: repliesOf(entry.m) } : {})}
              {...(inThread ? { inThread } : {})}
              onShortcut={onShortcut}
              onDismiss={onDismiss}
            />
          </Fragment>
        );
      })}
    </div>
  );
}
