/**
 * The playground page: a Slack-like workspace showing the state the page server keeps (the Slack
 * double's messages, views and homes), refreshed on each change it streams. What a person typed —
 * drafts, a modal's values — lives here, not in the state, so no refresh loses it.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type Answer, type Container, fetchState, type Json, type Message, post, type State } from './api.js';
import { SurfaceBlocks } from './blockkit.js';
import { Composer } from './composer.js';
import { ConfirmDialog, ModalView, Toast } from './dialogs.js';
import { type Env, EnvContext } from './env.js';
import { byTs, type Entry, EntryList } from './messages.js';
import { PlatformPanel } from './platform-panel.js';
import type { ElementState, StateValues } from './state-values.js';
import { WorkflowsPane } from './workflows.js';

type Place =
  | { kind: 'channel'; id: string }
  | { kind: 'home' }
  | { kind: 'workflows' }
  | { kind: 'messages' };

const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Who acts when the page opens: `?as=U…` in the address (kept there on each switch, so a reload or a
 * shared link acts as the same person), else the first demo person. `/api/state` needs a person
 * before the page knows the list, so the default is named here.
 */
function initialPerson(): string {
  return new URLSearchParams(window.location.search).get('as') || 'UADMIN';
}

function rememberPerson(id: string): void {
  const url = new URL(window.location.href);
  url.searchParams.set('as', id);
  window.history.replaceState(null, '', url);
}

/** Keeps the newest state: refetches on each streamed change, one request at a time. */
function useLiveState(as: string) {
  const [state, setState] = useState<State | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const busy = useRef(false);
  const again = useRef(false);
  const asRef = useRef(as);
  asRef.current = as;
  const refresh = useCallback(async () => {
    if (busy.current) {
      again.current = true;
      return;
    }
    busy.current = true;
    try {
      do {
        again.current = false;
        const who = asRef.current;
        const next = await fetchState(who);
        // A switch of person while this was in flight: its answer is someone else's view.
        if (who === asRef.current) setState(next);
        else again.current = true;
      } while (again.current);
      setFailure(null);
    } catch (e) {
      setFailure((e as Error).message);
    } finally {
      busy.current = false;
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [as, refresh]);
  useEffect(() => {
    const stream = new EventSource('/api/stream');
    stream.addEventListener('change', () => void refresh());
    // After a lost connection (the playground restarted), catch up with what changed meanwhile.
    stream.addEventListener('open', () => void refresh());
    return () => stream.close();
  }, [refresh]);
  return { state, failure, refresh };
}

export function App() {
  const [as, setAs] = useState(initialPerson);
  const { state, failure, refresh } = useLiveState(as);
  const [place, setPlace] = useState<Place | null>(null);
  const [thread, setThread] = useState<{ channel: string; ts: string } | null>(null);
  const [platformOpen, setPlatformOpen] = useState(false);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [viewChanges, setViewChanges] = useState<Record<string, StateValues>>({});
  const [dismissed, setDismissed] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState<{ dialog: Json; resolve: (yes: boolean) => void } | null>(
    null,
  );
  const [toast, setToast] = useState<{ at: number; text: string } | null>(null);
  const seenCounts = useRef<Record<string, number>>({});
  /** The notice last shown; the one already there when the page loads is not news. */
  const seenNotice = useRef<number | null | undefined>(undefined);

  const actingId = as;
  useEffect(() => rememberPerson(actingId), [actingId]);
  const channels = state?.channels ?? [];
  const current: Place | null = place ?? (channels[0] ? { kind: 'channel', id: channels[0].id } : null);

  // The server's notice of the last request (the bot's error, a refused request), once.
  useEffect(() => {
    if (!state) return;
    const at = state.notice?.at ?? null;
    if (seenNotice.current !== undefined && state.notice && at !== seenNotice.current) setToast(state.notice);
    seenNotice.current = at;
  }, [state]);

  // The typed values of views that left the stack are of no more use.
  useEffect(() => {
    if (!state) return;
    const open = new Set(state.modals.map((m) => m.id));
    setViewChanges((all) =>
      Object.keys(all).every((id) => open.has(id))
        ? all
        : Object.fromEntries(Object.entries(all).filter(([id]) => open.has(id))),
    );
  }, [state]);

  const report = (answer: Answer) => {
    if (!answer.ok && answer.error) setToast({ at: Date.now(), text: answer.error });
    void refresh();
    return answer;
  };
  const send = async (path: string, body: Json) => report(await post(path, { as: actingId, ...body }));

  // Opening the App Home tab is an event for the bot (app_home_opened), for whoever opens it.
  const onHome = place?.kind === 'home';
  useEffect(() => {
    if (onHome && actingId) void post('/api/home', { as: actingId }).then(report);
  }, [onHome, actingId]);

  const env: Env | null = useMemo(() => {
    if (!state) return null;
    const byId = new Map(state.people.map((p) => [p.id, p]));
    const channelNames = new Map(state.channels.map((c) => [c.id, c.name]));
    return {
      state,
      as: byId.get(actingId),
      zone: browserZone,
      now: () => new Date(),
      person: (id) => byId.get(id),
      channelName: (id) => channelNames.get(id),
      act: async (container: Container, action: Json, values?: StateValues) => {
        await send('/api/action', {
          container,
          action,
          ...(values && container.type === 'view' ? { values } : {}),
        });
      },
      confirm: (dialog) => new Promise<boolean>((resolve) => setConfirming({ dialog, resolve })),
      openThread: (channel, ts) => setThread({ channel, ts }),
      react: async (channel, ts, name) => {
        await send('/api/react', { channel, ts, name });
      },
    };
  }, [state, actingId]);

  const dismissToast = useCallback(() => setToast(null), []);

  if (!state || !env)
    return <div class="loading">{failure ? `The playground is not answering: ${failure}` : 'Loading…'}</div>;

  const shortcut = (callbackId: string, m?: Message) =>
    void send('/api/shortcut', { callback_id: callbackId, ...(m ? { channel: m.channel, ts: m.ts } : {}) });
  const postMessage = async (channel: string, text: string, threadTs?: string) =>
    (await send('/api/message', { channel, text, ...(threadTs ? { thread_ts: threadTs } : {}) })).ok;
  const draftOf = (key: string) => drafts[key] ?? '';
  const setDraft = (key: string) => (text: string) => setDrafts((d) => ({ ...d, [key]: text }));
  const dismiss = (id: string) => setDismissed((d) => new Set(d).add(id));
  const ephemerals = state.ephemerals.filter((e) => !dismissed.has(e.id));

  const topModal = state.modals[state.modals.length - 1];
  const channel = current?.kind === 'channel' ? state.channels.find((c) => c.id === current.id) : undefined;

  /** A channel's top level: its messages that are not replies, and the ephemerals outside threads. */
  const channelEntries = (id: string): Entry[] =>
    [
      ...state.messages
        .filter((m) => m.channel === id && (!m.thread_ts || m.thread_ts === m.ts))
        .map((m) => ({ kind: 'message', m }) as Entry),
      ...ephemerals
        .filter((e) => e.channel === id && !e.thread_ts)
        .map((m) => ({ kind: 'ephemeral', m }) as Entry),
    ].sort(byTs);
  const repliesOf = (parent: Message) =>
    state.messages.filter(
      (m) => m.channel === parent.channel && m.thread_ts === parent.ts && m.ts !== parent.ts,
    );
  // The thread pane belongs to the channel shown, as in Slack.
  const threadParent =
    thread && channel?.id === thread.channel
      ? state.messages.find((m) => m.channel === thread.channel && m.ts === thread.ts)
      : undefined;
  const threadEntries: Entry[] = threadParent
    ? [
        { kind: 'message', m: threadParent } as Entry,
        ...[
          ...repliesOf(threadParent).map((m) => ({ kind: 'message', m }) as Entry),
          ...ephemerals
            .filter((e) => e.channel === threadParent.channel && e.thread_ts === threadParent.ts)
            .map((m) => ({ kind: 'ephemeral', m }) as Entry),
        ].sort(byTs),
      ]
    : [];

  /**
   * A channel is bold in the sidebar when it has top-level messages the person has not had on
   * screen (counted at first sight, and whenever it is the channel shown).
   */
  const unread = (id: string) => {
    const count = state.messages.filter(
      (m) => m.channel === id && (!m.thread_ts || m.thread_ts === m.ts),
    ).length;
    if (seenCounts.current[id] === undefined || (current?.kind === 'channel' && current.id === id))
      seenCounts.current[id] = count;
    return count > (seenCounts.current[id] ?? count);
  };

  return (
    <EnvContext.Provider value={env}>
      <div class="app">
        <header class="topbar">
          <div class="topbar-search">confdesk playground · everything here goes through the real bot</div>
          <div class="topbar-right">
            <div class="acting">
              <label for="acting-as">Acting as</label>
              <select id="acting-as" value={actingId} onChange={(e) => setAs(e.currentTarget.value)}>
                {state.people.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.realName} — {p.role}, {p.tz}
                  </option>
                ))}
              </select>
              <label for="language">Slack language</label>
              <select
                id="language"
                value={env.as?.locale.startsWith('fr') ? 'fr-FR' : 'en-US'}
                onChange={(e) => void send('/api/language', { locale: e.currentTarget.value })}
              >
                <option value="en-US">English</option>
                <option value="fr-FR">Français</option>
              </select>
            </div>
            <button
              type="button"
              class={`topbar-btn${platformOpen ? ' on' : ''}`}
              aria-pressed={platformOpen}
              onClick={() => setPlatformOpen(!platformOpen)}
            >
              Platform
            </button>
          </div>
        </header>
        <nav class="sidebar" aria-label="Workspace">
          <div class="workspace">confdesk playground</div>
          <div class="side-section">Channels</div>
          {state.channels.map((c) => (
            <button
              type="button"
              key={c.id}
              class={`side-item${current?.kind === 'channel' && current.id === c.id ? ' active' : ''}${unread(c.id) ? ' unread' : ''}`}
              aria-current={current?.kind === 'channel' && current.id === c.id ? 'page' : undefined}
              onClick={() => setPlace({ kind: 'channel', id: c.id })}
            >
              <span class="hash">#</span> {c.name}
            </button>
          ))}
          <div class="side-section">Apps</div>
          <button
            type="button"
            class={`side-item${current?.kind === 'home' || current?.kind === 'messages' ? ' active' : ''}`}
            aria-current={current?.kind === 'home' || current?.kind === 'messages' ? 'page' : undefined}
            onClick={() => setPlace({ kind: 'home' })}
          >
            <span class="app-dot" aria-hidden="true">
              📹
            </span>{' '}
            {state.bot.name}
          </button>
          <button
            type="button"
            class={`side-item${current?.kind === 'workflows' ? ' active' : ''}`}
            aria-current={current?.kind === 'workflows' ? 'page' : undefined}
            onClick={() => setPlace({ kind: 'workflows' })}
          >
            <span class="app-dot" aria-hidden="true">
              ⚙️
            </span>{' '}
            Workflows
          </button>
          <div class="side-foot">
            You are <b>{env.as?.realName ?? actingId}</b>
            <br />
            {env.as?.role}
          </div>
        </nav>
        <main class="main">
          {current?.kind === 'home' ? (
            <>
              <div class="channel-head">
                <h1>
                  <span aria-hidden="true">📹</span> {state.bot.name}
                </h1>
                <div class="tabs">
                  <span class="tab on">Home</span>
                  <button type="button" class="tab off" onClick={() => setPlace({ kind: 'messages' })}>
                    Messages
                  </button>
                </div>
              </div>
              <div class="home">
                {state.home ? (
                  <SurfaceBlocks
                    key={`home-${actingId}`}
                    blocks={(state.home.blocks as Json[] | undefined) ?? []}
                    container={{ type: 'home' }}
                    surfaceKey="home"
                  />
                ) : (
                  <div class="log-empty">The app has not published a Home tab for you yet.</div>
                )}
              </div>
            </>
          ) : current?.kind === 'workflows' ? (
            <>
              <div class="channel-head">
                <h1>
                  <span aria-hidden="true">⚙️</span> Workflows
                </h1>
              </div>
              <WorkflowsPane />
            </>
          ) : current?.kind === 'messages' ? (
            <>
              <div class="channel-head">
                <h1>
                  <span aria-hidden="true">📹</span> {state.bot.name}
                </h1>
                <div class="tabs">
                  <button type="button" class="tab off" onClick={() => setPlace({ kind: 'home' })}>
                    Home
                  </button>
                  <span class="tab on">Messages</span>
                </div>
              </div>
              {/* The bot's direct messages with the person: its DM channel (conversations.open), and
                  the notices it posts to the person's id. Read-only, as the manifest's Messages tab. */}
              <EntryList
                key={`dm-${actingId}`}
                label={`Messages from ${state.bot.name}`}
                entries={[...channelEntries(state.dm ?? ''), ...channelEntries(actingId)].sort(byTs)}
                repliesOf={repliesOf}
                onShortcut={shortcut}
                onDismiss={dismiss}
                empty={`${state.bot.name} has sent you no direct message yet: conference reminders arrive here.`}
              />
            </>
          ) : channel ? (
            <>
              <div class="channel-head">
                <h1># {channel.name}</h1>
              </div>
              <EntryList
                key={channel.id}
                label={`Messages in #${channel.name}`}
                entries={channelEntries(channel.id)}
                repliesOf={repliesOf}
                onShortcut={shortcut}
                onDismiss={dismiss}
                empty={`This is the very beginning of #${channel.name}. Type /conference or /ticket below.`}
              />
              <Composer
                placeholder={`Message #${channel.name}`}
                draft={draftOf(channel.id)}
                onDraft={setDraft(channel.id)}
                onSend={(text) => postMessage(channel.id, text)}
                onShortcut={(id) => shortcut(id)}
              />
            </>
          ) : null}
        </main>
        {threadParent ? (
          <aside class="side-pane thread" aria-label="Thread">
            <div class="pane-head">
              <h2>
                Thread <span class="pane-sub">#{env.channelName(threadParent.channel)}</span>
              </h2>
              <button type="button" class="pane-x" aria-label="Close thread" onClick={() => setThread(null)}>
                ×
              </button>
            </div>
            <EntryList
              key={`${threadParent.channel}-${threadParent.ts}`}
              label="Thread messages"
              entries={threadEntries}
              inThread
              onShortcut={shortcut}
              onDismiss={dismiss}
            />
            <Composer
              placeholder="Reply…"
              draft={draftOf(`${threadParent.channel}:${threadParent.ts}`)}
              onDraft={setDraft(`${threadParent.channel}:${threadParent.ts}`)}
              onSend={(text) => postMessage(threadParent.channel, text, threadParent.ts)}
            />
          </aside>
        ) : null}
        {platformOpen ? (
          <PlatformPanel
            platform={state.platform}
            send={async (body) => report(await post('/api/platform', body))}
            onClose={() => setPlatformOpen(false)}
          />
        ) : null}
      </div>
      {topModal ? (
        <ModalView
          key={topModal.id}
          modal={topModal}
          depth={state.modals.length}
          changes={viewChanges[topModal.id] ?? {}}
          onChange={(blockId: string, actionId: string, value: ElementState) =>
            setViewChanges((all) => ({
              ...all,
              [topModal.id]: {
                ...all[topModal.id],
                [blockId]: { ...all[topModal.id]?.[blockId], [actionId]: value },
              },
            }))
          }
          onSubmit={async (values) => {
            await send('/api/submit', { viewId: topModal.id, values });
          }}
          onClose={async () => {
            await send('/api/close', { viewId: topModal.id });
          }}
        />
      ) : null}
      {confirming ? (
        <ConfirmDialog
          dialog={confirming.dialog}
          onAnswer={(yes) => {
            setConfirming(null);
            confirming.resolve(yes);
          }}
        />
      ) : null}
      {toast ? <Toast key={toast.at} text={toast.text} onDone={dismissToast} /> : null}
    </EnvContext.Provider>
  );
}
