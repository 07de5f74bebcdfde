/**
 * The page server's JSON API (the contract between src/playground/server.ts and the page): the
 * state the page renders and what its requests answer. Types only, so both sides import them.
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
  /** Their Slack language (`en-US`, `fr-FR`): what they alone see is written in it. */
  locale: string;
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
  /** The emoji people reacted with (Slack's names), and who. */
  reactions?: { name: string; users: string[] }[];
  /** The app's previews of the message's links (`chat.unfurl`), in the order they came. */
  unfurls?: { url: string; blocks: unknown[] }[];
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
  /** The bot's ticket events backlog, in a sentence (a busy desk: what is still to read). */
  backlog?: string | undefined;
}

/** A Workflow Builder step as the playground's *Workflows* offers it: its inputs but Slack's own. */
export interface WorkflowStep {
  callback_id: string;
  title: string;
  description: string;
  /** The inputs a builder sets (not `run_as`/`interactivity`: Slack fills those with the person). */
  inputs: {
    name: string;
    type: string;
    title: string;
    description?: string;
    required: boolean;
    choices?: { value: string; title: string }[];
  }[];
  outputs: { name: string; title: string }[];
}

/** What a step's run answered: its outputs (`complete`) or its error (`fail`), as Slack recorded them. */
export interface StepAnswer extends Answer {
  outputs?: Record<string, unknown>;
  failed?: string;
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
  /** The Workflow Builder steps (manifest.steps.yml), for *Workflows*. */
  steps?: WorkflowStep[];
  /** The acting person's direct messages with the bot (the app's Messages tab): its channel. */
  dm?: string;
}

/** Where an action happened, as `/api/action` takes it. */
export type Container =
  | { type: 'message'; channel: string; ts: string }
  | { type: 'ephemeral'; id: string }
  /** A link's unfurl under a message: Slack sends its clicks as a `message_attachment`. */
  | { type: 'unfurl'; channel: string; ts: string; url: string }
  | { type: 'view'; viewId: string }
  | { type: 'home' };

/** What every POST answers. */
export interface Answer {
  ok: boolean;
  error?: string;
  errors?: Record<string, string>;
}
