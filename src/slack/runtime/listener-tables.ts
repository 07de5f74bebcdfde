import type { AnyMiddlewareArgs, App, Middleware } from '@slack/bolt';

/**
 * The surfaces' listeners, as the registrars add them (`app.view(id, handler)`…): the same calls as
 * Bolt's, kept in one table per kind.
 */
export type Listeners = Pick<App, 'command' | 'view' | 'shortcut' | 'options' | 'event' | 'function'>;

type Kind = keyof Listeners;
type Handler = Middleware<AnyMiddlewareArgs>;

/** What a request of each kind is routed by (Bolt matches the same field for a string constraint). */
const keyOf: Record<Kind, (body: Record<string, unknown>) => unknown> = {
  command: (b) => b.command,
  view: (b) => (b.view as { callback_id?: unknown } | undefined)?.callback_id,
  shortcut: (b) => b.callback_id,
  options: (b) => b.action_id,
  event: (b) => (b.event as { type?: unknown } | undefined)?.type,
  // A Workflow Builder step: `function_executed` events, by the step's callback id.
  function: (b) => (b.event as { function?: { callback_id?: unknown } } | undefined)?.function?.callback_id,
};

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One Bolt listener per kind of request instead of one per id, as `ActionRoutes` does for the
 * buttons. Bolt runs every listener's matching middleware for every request (a copy of the request's
 * arguments each), so thirty listeners cost each ack thirty times what one does; here each kind's one
 * listener matches every id the registrars named (exactly, as Bolt's string constraints do) and calls
 * that id's handlers. The handlers get Bolt's own arguments, unchanged.
 */
export class ListenerTables {
  private readonly tables = new Map<Kind, Map<string, Handler[]>>();

  /** The registrars' `app`: each call adds a handler to its kind's table. */
  readonly listeners: Listeners = Object.fromEntries(
    (Object.keys(keyOf) as Kind[]).map((kind) => [
      kind,
      (id: unknown, ...handlers: Handler[]) => {
        if (typeof id !== 'string' || handlers.length !== 1)
          throw new Error(`a ${kind} listener is added with one id (a string) and one handler`);
        const table = this.tables.get(kind) ?? new Map<string, Handler[]>();
        this.tables.set(kind, table);
        table.set(id, [...(table.get(id) ?? []), handlers[0] as Handler]);
      },
    ]),
  ) as unknown as Listeners;

  /** Registers each kind's one listener with Bolt; call once, after every registrar. */
  install(app: App): void {
    for (const [kind, table] of this.tables) {
      if (kind === 'function') {
        (app.event as (name: string, handler: Handler) => void).call(
          app,
          'function_executed',
          functionRoute(table),
        );
        continue;
      }
      const ids = new RegExp(`^(?:${[...table.keys()].map(literal).join('|')})$`);
      const route: Handler = async (args) => {
        const handlers =
          table.get(String(keyOf[kind](args.body as unknown as Record<string, unknown>))) ?? [];
        if (handlers.length === 1) return (handlers[0] as Handler)(args);
        // Several handlers of one id run side by side, as Bolt runs several listeners.
        await Promise.all(handlers.map((h) => h(args)));
      };
      (app[kind] as (constraint: RegExp, handler: Handler) => void).call(app, ids, route);
    }
  }
}

/**
 * The steps' one listener: `function_executed` is an event Bolt does not ack by itself (its `ack` is
 * the listener's), so the route acks first, as `app.function` does, then calls the step's handler.
 * A step this version does not serve (a manifest newer than the code) ends with `fail`, never hangs.
 * An event Slack sends again (the ack was late or lost) is not run twice: `runStep` keeps its
 * execution id in the store, for every replica.
 */
function functionRoute(table: Map<string, Handler[]>): Handler {
  return async (args) => {
    const a = args as unknown as {
      ack?: () => Promise<void>;
      fail?: (p: { error: string }) => Promise<unknown>;
    };
    await a.ack?.();
    const handlers = table.get(String(keyOf.function(args.body as unknown as Record<string, unknown>)));
    if (!handlers?.length) {
      await a.fail?.({ error: 'This step is not served by this version of confdesk: update the app.' });
      return;
    }
    await Promise.all(handlers.map((h) => h(args)));
  };
}
