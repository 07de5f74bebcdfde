/**
 * What floats above the page: the top modal of the acting person's stack, the `confirm` dialog of a
 * button or menu, and the toast telling what went wrong.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Json, Modal } from './api.js';
import { Blocks } from './blockkit.js';
import type { Surface } from './elements.js';
import type { ElementState, StateValues } from './state-values.js';
import { stateValues } from './state-values.js';
import { plainOf, TextObject } from './text.js';

const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

/**
 * A modal as Slack draws it: title bar, blocks, Close and Submit. The values typed live with the
 * page (`changes`), so a refresh of the state — or the bot's `views.update` — keeps them.
 */
export function ModalView({
  modal,
  depth,
  changes,
  onChange,
  onSubmit,
  onClose,
}: {
  modal: Modal;
  depth: number;
  changes: StateValues;
  onChange: (blockId: string, actionId: string, state: ElementState) => void;
  onSubmit: (values: StateValues) => Promise<void>;
  onClose: () => Promise<void>;
}) {
  const view = modal.view;
  const blocks = list(view.blocks);
  const title = plainOf(view.title) || 'Modal';
  const values = stateValues(blocks, changes);
  const [busy, setBusy] = useState(false);
  const surface: Surface = {
    container: { type: 'view', viewId: modal.id },
    key: `v-${modal.id}`,
    values,
    onValue: onChange,
    ...(modal.errors ? { errors: modal.errors } : {}),
  };
  const run = async (f: () => Promise<void>) => {
    setBusy(true);
    try {
      await f();
    } finally {
      setBusy(false);
    }
  };
  // Escape closes the modal, as in Slack (telling the app when it asked to know), wherever the focus
  // is: a modal opened from the composer or a button leaves the focus there. A confirm dialog above it
  // takes the Escape for itself.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || document.querySelector('.confirm-overlay')) return;
      e.preventDefault();
      void close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div class="overlay">
      <div class="modal" role="dialog" aria-modal="true" aria-label={title}>
        <form
          class="modal-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (view.submit) void run(() => onSubmit(values));
          }}
        >
          <div class="modal-head">
            {depth > 1 ? (
              <span class="modal-back" aria-hidden="true">
                ←
              </span>
            ) : null}
            <span class="modal-icon" aria-hidden="true">
              📹
            </span>
            <h2 class="modal-title">{title}</h2>
            <button type="button" class="modal-x" aria-label="Close modal" onClick={() => void run(onClose)}>
              ×
            </button>
          </div>
          <div class="modal-body">
            <Blocks blocks={blocks} surface={surface} />
          </div>
          <div class="modal-foot">
            <button type="button" class="bk-btn" onClick={() => void run(onClose)}>
              {plainOf(view.close) || 'Close'}
            </button>
            {view.submit ? (
              <button type="submit" class="bk-btn primary" disabled={busy}>
                {plainOf(view.submit)}
              </button>
            ) : null}
          </div>
        </form>
      </div>
    </div>
  );
}

/** A Block Kit confirmation dialog: https://api.slack.com/reference/block-kit/composition-objects#confirm */
export function ConfirmDialog({ dialog, onAnswer }: { dialog: Json; onAnswer: (yes: boolean) => void }) {
  const title = plainOf(dialog.title) || 'Are you sure?';
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);
  return (
    <div class="overlay confirm-overlay">
      <div
        class="modal confirm"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        onKeyDown={(e) => e.key === 'Escape' && onAnswer(false)}
      >
        <div class="modal-head">
          <h2 class="modal-title">{title}</h2>
        </div>
        <div class="modal-body">
          <TextObject obj={dialog.text} />
        </div>
        <div class="modal-foot">
          <button type="button" class="bk-btn" onClick={() => onAnswer(false)}>
            {plainOf(dialog.deny) || 'Cancel'}
          </button>
          <button
            type="button"
            ref={confirmRef}
            class={`bk-btn ${dialog.style === 'danger' ? 'danger' : 'primary'}`}
            onClick={() => onAnswer(true)}
          >
            {plainOf(dialog.confirm) || 'Yes'}
          </button>
        </div>
      </div>
    </div>
  );
}

/** A short-lived message at the bottom of the page (a refused request, the bot's error). */
export function Toast({ text, onDone }: { text: string; onDone: () => void }) {
  useEffect(() => {
    const timer = setTimeout(onDone, 8000);
    return () => clearTimeout(timer);
  }, [onDone]);
  return (
    <div class="toast" role="status">
      <span>{text}</span>
      <button type="button" class="toast-x" aria-label="Dismiss notice" onClick={onDone}>
        ×
      </button>
    </div>
  );
}
