/**
 * The message box: Enter sends (Shift+Enter breaks the line), `/conference …` and `/ticket …` become
 * slash commands on the server side, and ⚡ lists the app's global shortcuts.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useEnv } from './use-env.js';
import { useMenu } from './use-menu.js';

export function Composer({
  placeholder,
  draft,
  onDraft,
  onSend,
  onShortcut,
}: {
  placeholder: string;
  draft: string;
  onDraft: (text: string) => void;
  /** Resolves true when the message went out (the draft is cleared then, and only then). */
  onSend: (text: string) => Promise<boolean>;
  /** Given for the channel's composer only: global shortcuts are not offered in a thread. */
  onShortcut?: (callbackId: string) => void;
}) {
  const env = useEnv();
  const { open: menu, setOpen: setMenu, ref } = useMenu();
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  // The box grows with its text, as Slack's does (the style sheet caps it).
  useEffect(() => {
    const el = input.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight}px`;
  }, [draft]);
  const send = async () => {
    const text = draft.trim();
    if (!text || sending) return;
    setSending(true);
    try {
      if (await onSend(text)) onDraft('');
    } finally {
      setSending(false);
    }
  };
  const globals = env.state.shortcuts.filter((s) => s.type === 'global');
  return (
    <div class="composer" ref={ref}>
      <textarea
        ref={input}
        class="composer-input"
        aria-label={placeholder}
        placeholder={placeholder}
        rows={1}
        value={draft}
        onInput={(e) => onDraft(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <div class="composer-bar">
        {onShortcut ? (
          <button
            type="button"
            class="tool"
            aria-label="Shortcuts"
            title="Shortcuts"
            aria-expanded={menu}
            onClick={() => setMenu(!menu)}
          >
            ⚡
          </button>
        ) : null}
        <span class="composer-hint">
          <b>Enter</b> to send · try <code>/conference</code> or <code>/ticket</code>
        </span>
        <button
          type="button"
          class="send"
          aria-label="Send"
          disabled={!draft.trim() || sending}
          onClick={() => void send()}
        >
          ➤
        </button>
      </div>
      {menu && onShortcut ? (
        <div class="menu up" role="menu">
          <div class="menu-title">Shortcuts · {env.state.bot.name}</div>
          {globals.map((s) => (
            <button
              type="button"
              role="menuitem"
              key={s.callback_id}
              onClick={() => {
                setMenu(false);
                onShortcut(s.callback_id);
              }}
            >
              <span class="menu-item-name">{s.name}</span>
              {s.description ? <span class="menu-item-desc">{s.description}</span> : null}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
