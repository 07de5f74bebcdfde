/**
 * What every component of the page may need from the page itself, given once through a Preact
 * context rather than threaded through each Block Kit element.
 */
import { createContext } from 'preact';
import type { Container, Json, Person, State } from './api.js';
import type { StateValues } from './state-values.js';

export interface Env {
  state: State;
  /** The acting person. */
  as: Person | undefined;
  /** The zone date tokens are shown in: the browser's, as Slack shows them in the viewer's. */
  zone: string;
  now(): Date;
  person(id: string): Person | undefined;
  channelName(id: string): string | undefined;
  /** Sends one block action from a container (with the view's values for a view). */
  act(container: Container, action: Json, values?: StateValues): Promise<void>;
  /** Shows a Block Kit `confirm` object and resolves with the person's answer. */
  confirm(dialog: Json): Promise<boolean>;
  openThread(channel: string, ts: string): void;
  /** The acting person adds an emoji reaction (Slack's name) to a message: a `reaction_added` event. */
  react(channel: string, ts: string, name: string): Promise<void>;
}

export const EnvContext = createContext<Env | null>(null);
