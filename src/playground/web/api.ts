/**
 * The page server's JSON API as the page uses it (the contract in the playground brief): the state
 * it renders and the requests a person's clicks become.
 */

/** A Block Kit object as the bot sent it; the renderer reads it field by field. */
export type Json = Record<string, unknown>;

export interface Person {
  id: string;
  name: string;
  realName: string;
  email?: string;
  tz: string;
  role: string;
}

export interface FileRef {
  id: string;
  name: string;
  title?: string;
  size: number;
  url: string;
  mimetype: string;
}

export interface Message {
  channel: string;
  ts: string;
  thread_ts?: string;
  user: string;
  text?: string;
  blocks?: unknown[];
  edited?: boolean;
  files?: FileRef[];
}

export interface Ephemeral {
  id: string;
  channel: string;
  ts: string;
  thread_ts?: string;
  text?: string;
  blocks?: unknown[];
}

export interface Modal {
  id: string;
  view: Json;
  errors?: Record<string, string>;
}

export interface Shortcut {
  type: 'global' | 'message';
  callback_id: string;
  name: string;
  description?: string;
}

export interface PlatformControls {
  tickets: { id: number; reference: string; title: string; state: string }[];
  states: string[];
  webhooks: boolean;
}

export interface State {
  version: number;
  bot: { id: string; name: string };
  people: Person[];
  channels: { id: string; name: string }[];
  messages: Message[];
  ephemerals: Ephemeral[];
  modals: Modal[];
  home: Json | null;
  shortcuts: Shortcut[];
  platform: PlatformControls | null;
  notice?: { at: number; text: string };
}

/** Where an action happened, as `/api/action` takes it. */
export type Container =
  | { type: 'message'; channel: string; ts: string }
  | { type: 'ephemeral'; id: string }
  | { type: 'view'; viewId: string }
  | { type: 'home' };

/** What every POST answers. */
export interface Answer {
  ok: boolean;
  error?: string;
  errors?: Record<string, string>;
}

export async function fetchState(as: string): Promise<State> {
  const res = await fetch(`/api/state?as=${encodeURIComponent(as)}`);
  if (!res.ok) throw new Error(`state: HTTP ${res.status}`);
  return (await res.json()) as State;
}

/** POSTs to the page server; a refused or failed request is an answer with its error, never a throw. */
export async function post(path: string, body: Json): Promise<Answer> {
  try {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const answer = (text ? JSON.parse(text) : {}) as Partial<Answer>;
    const ok = res.ok && answer.ok !== false;
    return {
      ...answer,
      ok,
      ...(ok || answer.error ? {} : { error: `The playground answered HTTP ${res.status}` }),
    };
  } catch (e) {
    return { ok: false, error: `The playground did not answer (${(e as Error).message})` };
  }
}
