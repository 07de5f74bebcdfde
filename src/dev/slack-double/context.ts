import type { SocketModeDouble } from '../socket-mode-double.js';
import type {
  ResponseTarget,
  SlackEphemeral,
  SlackMessage,
  SlackStepRun,
  SlackUpload,
  SlackUserRecord,
  UploadFault,
} from './types.js';

/** The double's records and switches, as `SlackDouble` holds them (read live: a test may change a switch). */
export interface DoubleState {
  readonly messages: SlackMessage[];
  readonly ephemerals: SlackEphemeral[];
  readonly responses: { path: string; body: Record<string, unknown> }[];
  readonly users: Map<string, SlackUserRecord>;
  readonly channelNames: Map<string, string>;
  readonly notInChannel: Set<string>;
  readonly dmOpens: string[];
  readonly views: Map<string, { id: string; view: Record<string, unknown> }>;
  readonly modalStacks: Map<string, string[]>;
  readonly homes: Map<string, Record<string, unknown>>;
  readonly uploads: Map<string, SlackUpload>;
  readonly filesProcessingMs: number;
  readonly uploadFaults: UploadFault[];
  readonly keepUploadBytes: number;
  readonly violations: { method: string; problems: string[] }[];
  readonly installed: Map<string, { teamId: string; teamName: string; botUserId: string }>;
  readonly revokedTokens: Set<string>;
  readonly grantedScopes: string[];
  readonly oauthApp: { clientId: string; clientSecret: string } | undefined;
  readonly botUserId: string;
  readonly teamId: string;
  readonly url: string;
  readonly socket: SocketModeDouble | undefined;
  /** The Workflow Builder steps' runs, by execution id (`functions.*` end them). */
  readonly stepRuns: Map<string, SlackStepRun>;
}

/**
 * What each family of Web API methods (`slack-double/<family>.ts`) is given: the double's state, the
 * records it keeps to itself, and the helpers that number and store what the families create.
 */
export interface DoubleContext {
  double: DoubleState;
  /** Who each trigger_id belongs to: `views.open`/`push` put the modal in that person's stack. */
  triggers: Map<string, string>;
  /** The codes "Add to Slack" handed out, until `oauth.v2.access` takes them. */
  oauthCodes: Map<string, { teamId: string; teamName: string; user: string }>;
  /** response_urls tied to a message or a person, so their answers act where Slack's do. */
  responseTargets: Map<string, ResponseTarget>;
  /** A message timestamp, later than every earlier one. */
  nextTs(): string;
  /** A new id for a view or a file: `prefix` and a number no other id has. */
  nextId(prefix: string): string;
  /** Keeps a view under `id` (a new one when not given); a replaced view loses its inline errors. */
  storeView(view: Record<string, unknown>, id?: string): string;
  addEphemeral(
    user: string,
    channel: string,
    threadTs: string | undefined,
    content: { text: string | undefined; blocks: unknown[] | undefined },
  ): SlackEphemeral;
}

/** How the double answers one Web API method. */
export interface Method {
  answer(args: Record<string, unknown>, token: string | undefined): Record<string, unknown>;
  /** The call carries blocks, checked against Block Kit's limits: a message (its args) or a view (`args.view`). */
  blocks?: 'message' | 'view';
  /** Text beside the blocks that Slack reads as mrkdwn, checked for tokens the bot did not write. */
  texts?: (args: Record<string, unknown>) => unknown;
  /** Its success changes what a person sees: the change feed moves on. */
  changes?: boolean;
}

/** A family's methods, by name. */
export type Methods = Record<string, Method>;
