/**
 * Block Kit's interactive elements as native controls (real buttons, selects, inputs), so a person,
 * a screen reader and a test find them by their visible text and labels.
 * https://api.slack.com/reference/block-kit/block-elements
 */
import { useRef, useState } from 'preact/hooks';
import { type Container, type Json, post } from './api.js';
import { epochToWallClock, wallClockToEpoch } from './dates.js';
import { safeHref } from './links.js';
import type { ElementState, StateValues } from './state-values.js';
import { plainOf, TextObject } from './text.js';
import { useEnv } from './use-env.js';
import { useMenu } from './use-menu.js';

/** Where an element lives and how its value is kept (a view's values live above the modal). */
export interface Surface {
  container: Container;
  values: StateValues;
  onValue(blockId: string, actionId: string, state: ElementState): void;
  /** Inline errors by block_id (views). */
  errors?: Record<string, string>;
  /** Unique per surface, for element ids and label links. */
  key: string;
}

export interface ElementProps {
  el: Json;
  blockId: string;
  surface: Surface;
  /** Whether a change sends a block action (always outside input blocks; `dispatch_action` inside). */
  dispatch: boolean;
  /** The id the input block's `<label for>` points at. */
  inputId?: string;
  /** The id of the label naming a group (checkboxes, radio buttons). */
  labelId?: string;
}

type Option = Json & { value?: string };

const options = (el: Json): Option[] => {
  const groups = (el.option_groups as Json[] | undefined) ?? [];
  return [
    ...((el.options as Option[] | undefined) ?? []),
    ...groups.flatMap((g) => (g.options as Option[]) ?? []),
  ];
};

/** The element's state in its surface, or its initial one. */
function useElementState(p: ElementProps): ElementState | undefined {
  return p.surface.values[p.blockId]?.[String(p.el.action_id)];
}

/** Changes an element's value and, when it dispatches, sends the block action with it. */
function useChange(p: ElementProps) {
  const env = useEnv();
  const actionId = String(p.el.action_id);
  return async (state: ElementState) => {
    p.surface.onValue(p.blockId, actionId, state);
    if (!p.dispatch) return;
    if (p.el.confirm && !(await env.confirm(p.el.confirm as Json))) return;
    const values = {
      ...p.surface.values,
      [p.blockId]: { ...p.surface.values[p.blockId], [actionId]: state },
    };
    await env.act(p.surface.container, { action_id: actionId, block_id: p.blockId, ...state }, values);
  };
}

export function ButtonElement({ el, blockId, surface }: ElementProps) {
  const env = useEnv();
  const [busy, setBusy] = useState(false);
  const style = el.style === 'primary' || el.style === 'danger' ? ` ${el.style}` : '';
  const click = async () => {
    if (el.confirm && !(await env.confirm(el.confirm as Json))) return;
    // A link button opens its page and still tells the app, as Slack does.
    const href = typeof el.url === 'string' ? safeHref(el.url) : undefined;
    if (href) window.open(href, '_blank', 'noopener,noreferrer');
    setBusy(true);
    const action: Json = { type: 'button', action_id: el.action_id, block_id: blockId, text: el.text };
    if (el.value !== undefined) action.value = el.value;
    try {
      await env.act(surface.container, action, surface.values);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" class={`bk-btn${style}${busy ? ' busy' : ''}`} onClick={click}>
      <TextObject obj={el.text} />
    </button>
  );
}

/** A static select (options or option groups), with its placeholder as the empty choice. */
export function StaticSelect(p: ElementProps) {
  const state = useElementState(p);
  const change = useChange(p);
  const selected = (state?.selected_option as Option | null | undefined)?.value ?? '';
  const groups = p.el.option_groups as Json[] | undefined;
  const option = (o: Option) => (
    <option key={o.value} value={o.value}>
      {plainOf(o.text)}
    </option>
  );
  return (
    <select
      id={p.inputId}
      class="bk-select"
      aria-label={p.inputId ? undefined : plainOf(p.el.placeholder) || 'Select an option'}
      value={selected}
      onChange={(e) => {
        const value = e.currentTarget.value;
        const picked = options(p.el).find((o) => o.value === value);
        void change({ type: String(p.el.type), selected_option: picked ?? null });
      }}
    >
      <option value="" disabled={!!selected}>
        {plainOf(p.el.placeholder) || 'Select an option'}
      </option>
      {groups
        ? groups.map((g) => (
            <optgroup key={plainOf(g.label)} label={plainOf(g.label)}>
              {((g.options as Option[]) ?? []).map(option)}
            </optgroup>
          ))
        : options(p.el).map(option)}
    </select>
  );
}

/**
 * A type-ahead menu (external_select): what the person types goes to the bot as Slack
 * sends it (a signed `block_suggestion` to the options load URL, through the page server), and the
 * options it answers are listed to pick from. Slack asks from `min_query_length` characters (3 by
 * default; 0: as soon as the menu opens).
 */
export function ExternalSelect(p: ElementProps) {
  const env = useEnv();
  const state = useElementState(p);
  const change = useChange(p);
  const selected = state?.selected_option as Option | null | undefined;
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Option[] | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(0);
  const minLength = Number(p.el.min_query_length ?? 3);
  const listId = `${p.inputId ?? `${p.surface.key}-${p.blockId}`}-options`;
  const ask = async (value: string) => {
    const asked = ++latest.current;
    const answer = (await post('/api/suggest', {
      as: env.as?.id ?? '',
      container: p.surface.container as unknown as Json,
      block_id: p.blockId,
      action_id: String(p.el.action_id),
      value,
    })) as { ok: boolean; error?: string; options?: Option[] };
    // An answer to an older keystroke arriving late is dropped, as Slack drops it.
    if (asked !== latest.current) return;
    setProblem(answer.ok ? undefined : answer.error);
    setFound(answer.ok ? (answer.options ?? []) : []);
  };
  const typed = (value: string) => {
    setQuery(value);
    clearTimeout(timer.current);
    if (value.length < minLength) {
      setFound(undefined);
      return;
    }
    timer.current = setTimeout(() => void ask(value), 200);
  };
  const pick = (o: Option) => {
    // Answers still on their way (an earlier keystroke's) must not open the list again.
    clearTimeout(timer.current);
    latest.current++;
    setFound(undefined);
    setQuery('');
    void change({ type: 'external_select', selected_option: o });
  };
  return (
    <div class="bk-typeahead">
      <input
        id={p.inputId}
        type="text"
        role="combobox"
        class="bk-text"
        aria-autocomplete="list"
        aria-expanded={found !== undefined}
        aria-controls={listId}
        aria-label={p.inputId ? undefined : plainOf(p.el.placeholder) || 'Type to search'}
        placeholder={selected ? plainOf(selected.text) : plainOf(p.el.placeholder) || 'Type to search'}
        value={query}
        onFocus={() => {
          if (minLength === 0 && found === undefined) void ask(query);
        }}
        onInput={(e) => typed(e.currentTarget.value)}
      />
      {selected ? <div class="bk-typeahead-chosen">Chosen: {plainOf(selected.text)}</div> : null}
      {problem ? <div class="bk-typeahead-chosen">{problem}</div> : null}
      {found !== undefined ? (
        <ul id={listId} class="bk-typeahead-list" aria-label="Options">
          {found.length === 0 ? (
            <li class="bk-typeahead-none">No matches</li>
          ) : (
            found.map((o) => (
              <li key={o.value}>
                <button type="button" onClick={() => pick(o)}>
                  {plainOf(o.text)}
                </button>
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}

/** A select of the workspace's people or channels (users_select, conversations_select). */
export function EntitySelect(p: ElementProps & { kind: 'user' | 'conversation' | 'channel' }) {
  const env = useEnv();
  const state = useElementState(p);
  const change = useChange(p);
  const key = `selected_${p.kind}`;
  const selected = (state?.[key] as string | null | undefined) ?? '';
  const choices =
    p.kind === 'user'
      ? env.state.people.map((u) => ({ id: u.id, label: u.realName }))
      : env.state.channels.map((c) => ({ id: c.id, label: `#${c.name}` }));
  // A value the page does not list (a channel it has not heard of) still shows.
  if (selected && !choices.some((c) => c.id === selected)) choices.push({ id: selected, label: selected });
  return (
    <select
      id={p.inputId}
      class="bk-select"
      aria-label={p.inputId ? undefined : plainOf(p.el.placeholder) || `Select a ${p.kind}`}
      value={selected}
      onChange={(e) => void change({ type: String(p.el.type), [key]: e.currentTarget.value || null })}
    >
      <option value="">
        {plainOf(p.el.placeholder) || (p.kind === 'user' ? 'Select a person' : 'Select a channel')}
      </option>
      {choices.map((c) => (
        <option key={c.id} value={c.id}>
          {c.label}
        </option>
      ))}
    </select>
  );
}

/** Several people: chips with a remove button, and a select to add one more. */
export function MultiUsersSelect(p: ElementProps) {
  const env = useEnv();
  const state = useElementState(p);
  const change = useChange(p);
  const chosen = (state?.selected_users as string[] | undefined) ?? [];
  const set = (users: string[]) => void change({ type: 'multi_users_select', selected_users: users });
  return (
    <div class="bk-multi">
      {chosen.map((id) => (
        <span key={id} class="chip">
          {env.person(id)?.realName ?? id}
          <button
            type="button"
            class="chip-x"
            aria-label={`Remove ${env.person(id)?.realName ?? id}`}
            onClick={() => set(chosen.filter((u) => u !== id))}
          >
            ×
          </button>
        </span>
      ))}
      <select
        id={p.inputId}
        class="bk-select"
        aria-label={p.inputId ? undefined : plainOf(p.el.placeholder) || 'Add people'}
        value=""
        onChange={(e) => {
          const id = e.currentTarget.value;
          if (id && !chosen.includes(id)) set([...chosen, id]);
        }}
      >
        <option value="">{plainOf(p.el.placeholder) || 'Add people'}</option>
        {env.state.people
          .filter((u) => !chosen.includes(u.id))
          .map((u) => (
            <option key={u.id} value={u.id}>
              {u.realName}
            </option>
          ))}
      </select>
    </div>
  );
}

/** The ⋯ menu of an overflow element. */
export function Overflow(p: ElementProps) {
  const { open, setOpen, ref } = useMenu();
  const change = useChange({ ...p, dispatch: true });
  return (
    <div class="overflow" ref={ref}>
      <button
        type="button"
        class="bk-btn icon"
        aria-label="More options"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        ⋯
      </button>
      {open && (
        <div class="menu" role="menu">
          {options(p.el).map((o) => (
            <button
              type="button"
              role="menuitem"
              key={o.value}
              onClick={() => {
                setOpen(false);
                const href = typeof o.url === 'string' ? safeHref(o.url) : undefined;
                if (href) window.open(href, '_blank', 'noopener,noreferrer');
                void change({ type: 'overflow', selected_option: o });
              }}
            >
              {plainOf(o.text)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** Checkboxes or radio buttons: each option its own labelled control, the group named by the block label. */
export function Choices(p: ElementProps & { multiple: boolean }) {
  const state = useElementState(p);
  const change = useChange(p);
  const type = String(p.el.type);
  const chosen = p.multiple
    ? ((state?.selected_options as Option[] | undefined) ?? [])
    : [state?.selected_option as Option | null | undefined].filter((o): o is Option => !!o);
  const isChosen = (o: Option) => chosen.some((c) => c.value === o.value);
  const toggle = (o: Option) => {
    if (!p.multiple) return void change({ type, selected_option: o });
    const next = isChosen(o) ? chosen.filter((c) => c.value !== o.value) : [...chosen, o];
    // In the order of the options, as Slack sends them.
    void change({
      type,
      selected_options: options(p.el).filter((x) => next.some((n) => n.value === x.value)),
    });
  };
  const name = `${p.surface.key}-${p.blockId}-${String(p.el.action_id)}`;
  return (
    <fieldset class="bk-choices" aria-labelledby={p.labelId}>
      {options(p.el).map((o) => (
        <label key={o.value} class="choice">
          <input
            type={p.multiple ? 'checkbox' : 'radio'}
            name={name}
            checked={isChosen(o)}
            onChange={() => toggle(o)}
          />
          <span>
            <span class="choice-text">
              <TextObject obj={o.text} />
            </span>
            {o.description ? (
              <span class="choice-desc">
                <TextObject obj={o.description} />
              </span>
            ) : null}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** plain_text_input (one line or multiline), number_input and the e-mail/URL inputs. */
export function TextInput(p: ElementProps) {
  const state = useElementState(p);
  const change = useChange({ ...p, dispatch: false });
  const send = useChange(p);
  const type = String(p.el.type);
  const value = (state?.value as string | null | undefined) ?? '';
  const common = {
    id: p.inputId,
    class: 'bk-text',
    value,
    placeholder: plainOf(p.el.placeholder),
    onInput: (e: Event) => void change({ type, value: (e.currentTarget as HTMLInputElement).value }),
  };
  if (p.el.multiline)
    return <textarea {...common} rows={4} maxLength={p.el.max_length as number | undefined} />;
  // dispatch_action inputs send on Enter (Slack's default trigger).
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && p.dispatch)
      void send({ type, value: (e.currentTarget as HTMLInputElement).value || null });
  };
  if (type === 'number_input')
    return (
      <input
        {...common}
        type="number"
        min={p.el.min_value as string | undefined}
        max={p.el.max_value as string | undefined}
        step={p.el.is_decimal_allowed ? 'any' : '1'}
        onKeyDown={onKeyDown}
      />
    );
  // E-mail and URL inputs take any text here: the app checks them, as it must with Slack too.
  return (
    <input {...common} type="text" maxLength={p.el.max_length as number | undefined} onKeyDown={onKeyDown} />
  );
}

/** datepicker, timepicker and datetimepicker; the date-time is read in the acting person's zone. */
export function Picker(p: ElementProps) {
  const env = useEnv();
  const state = useElementState(p);
  const change = useChange(p);
  const type = String(p.el.type);
  const zone = env.as?.tz ?? env.zone;
  if (type === 'datetimepicker') {
    const epoch = state?.selected_date_time as number | null | undefined;
    return (
      <span class="picker">
        <input
          id={p.inputId}
          type="datetime-local"
          class="bk-text"
          aria-label={p.inputId ? undefined : 'Date and time'}
          value={typeof epoch === 'number' ? epochToWallClock(epoch, zone) : ''}
          onChange={(e) =>
            void change({ type, selected_date_time: wallClockToEpoch(e.currentTarget.value, zone) ?? null })
          }
        />
        <span class="zone">{zone}</span>
      </span>
    );
  }
  const key = type === 'datepicker' ? 'selected_date' : 'selected_time';
  return (
    <input
      id={p.inputId}
      type={type === 'datepicker' ? 'date' : 'time'}
      class="bk-text picker"
      aria-label={
        p.inputId ? undefined : plainOf(p.el.placeholder) || (type === 'datepicker' ? 'Date' : 'Time')
      }
      value={(state?.[key] as string | null | undefined) ?? ''}
      onChange={(e) => void change({ type, [key]: e.currentTarget.value || null })}
    />
  );
}

/** An image element (in a context block or a section's accessory). */
export function ImageElement({ el, small }: { el: Json; small?: boolean }) {
  const url = typeof el.image_url === 'string' ? el.image_url : undefined;
  if (!url) return null;
  return <img class={small ? 'ctx-img' : 'acc-img'} src={url} alt={String(el.alt_text ?? '')} />;
}

/** Any element, by type; unknown ones say what they are instead of vanishing. */
export function Element(p: ElementProps) {
  switch (p.el.type) {
    case 'button':
      return <ButtonElement {...p} />;
    case 'static_select':
      return <StaticSelect {...p} />;
    case 'external_select':
      return <ExternalSelect {...p} />;
    case 'users_select':
      return <EntitySelect {...p} kind="user" />;
    case 'conversations_select':
      return <EntitySelect {...p} kind="conversation" />;
    case 'channels_select':
      return <EntitySelect {...p} kind="channel" />;
    case 'multi_users_select':
      return <MultiUsersSelect {...p} />;
    case 'overflow':
      return <Overflow {...p} />;
    case 'checkboxes':
      return <Choices {...p} multiple />;
    case 'radio_buttons':
      return <Choices {...p} multiple={false} />;
    case 'plain_text_input':
    case 'number_input':
    case 'email_text_input':
    case 'url_text_input':
      return <TextInput {...p} />;
    case 'datepicker':
    case 'timepicker':
    case 'datetimepicker':
      return <Picker {...p} />;
    case 'image':
      return <ImageElement el={p.el} />;
    default:
      return <span class="unsupported">[{String(p.el.type)}]</span>;
  }
}
