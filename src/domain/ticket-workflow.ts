import { type TicketState, ticketStates } from '../platform/schemas.js';

/** The ticket states of the spec, in its order (for pickers). */
export { ticketStates };

/*
 * The ticket workflow, in one table: which moves a card offers in each state, and what each does.
 * The spec gives the typical lifecycle open → inprogress → done; the other moves a support team needs
 * use the spec's other states with their stated meanings (platform-api.md, "Ticket states").
 */

/** A move a person can make from a ticket card. */
export interface TicketMove {
  id: TicketMoveId;
  label: string;
  /** The state the ticket goes to; undefined for moves that keep the state (assign). */
  to: TicketState | undefined;
  /** States the move is offered in. */
  from: readonly TicketState[];
  style?: 'primary' | 'danger';
  /** Destructive moves ask before they act. */
  confirm?: { title: string; text: string; button: string };
}

export type TicketMoveId =
  | 'accept'
  | 'start'
  | 'done'
  | 'assign'
  | 'invite'
  | 'reopen'
  | 'close'
  | 'cancel'
  | 'reject';

const active = ['new', 'open', 'invited', 'inprogress'] as const satisfies readonly TicketState[];
const finished = [
  'done',
  'rejected',
  'declined',
  'expired',
  'cancelled',
] as const satisfies readonly TicketState[];

/** Whether a ticket in this state still needs someone (new, open, invited, in progress). */
export const isActiveState = (state: string | undefined): boolean =>
  (active as readonly string[]).includes(state ?? '');

/** Every move, in the order the card shows them. */
export const ticketMoves: readonly TicketMove[] = [
  { id: 'accept', label: 'Accept', to: 'open', from: ['new'], style: 'primary' },
  { id: 'start', label: 'Start', to: 'inprogress', from: ['open', 'invited'], style: 'primary' },
  { id: 'done', label: 'Done', to: 'done', from: ['inprogress'], style: 'primary' },
  { id: 'assign', label: 'Assign to me', to: undefined, from: active },
  { id: 'invite', label: 'Invite now', to: 'invited', from: ['new', 'open'] },
  { id: 'reopen', label: 'Reopen', to: 'open', from: finished },
  {
    id: 'close',
    label: 'Close',
    to: 'closed',
    from: finished,
    confirm: {
      title: 'Close this ticket?',
      text: 'A closed ticket is archived: no further action is possible on it.',
      button: 'Close it',
    },
  },
  {
    id: 'cancel',
    label: 'Cancel',
    to: 'cancelled',
    from: active,
    style: 'danger',
    confirm: {
      title: 'Cancel this ticket?',
      text: 'The session is withdrawn before completion.',
      button: 'Cancel it',
    },
  },
  {
    id: 'reject',
    label: 'Reject',
    to: 'rejected',
    from: ['new', 'open'],
    style: 'danger',
    confirm: {
      title: 'Reject this ticket?',
      text: 'The request is refused and not processed.',
      button: 'Reject it',
    },
  },
];

const known = new Set<string>(ticketStates);

/** Whether a state string is one of the spec's ten (webhooks also say e.g. `opened`, `updated`). */
export const isKnownState = (state: string | undefined): state is TicketState => known.has(state ?? '');

/**
 * The moves a card offers for a state. An unknown state (or none) offers only what is safe whatever
 * the state really is: taking the ticket. The platform stays the judge of every move.
 */
export function movesFor(state: string | undefined): TicketMove[] {
  if (!isKnownState(state)) return ticketMoves.filter((m) => m.id === 'assign');
  return ticketMoves.filter((m) => m.from.includes(state));
}

export const findMove = (id: string) => ticketMoves.find((m) => m.id === id);

/**
 * Whether the workflow goes from one state to the other only through states in between (`new` to
 * `inprogress` is Accept, then Start): a state line the list shows with only its two ends then hides
 * steps. A direct move, or states no move joins (a platform's own `expired`), hide nothing known.
 */
export function spansSteps(from: string | null | undefined, to: string | null | undefined): boolean {
  if (!isKnownState(from ?? undefined) || !isKnownState(to ?? undefined) || from === to) return false;
  const next = (state: string) =>
    ticketMoves.flatMap((m) => (m.to && (m.from as readonly string[]).includes(state) ? [m.to] : []));
  if (next(from as string).includes(to as TicketState)) return false;
  const seen = new Set<string>([from as string]);
  for (let frontier = next(from as string); frontier.length; ) {
    if (frontier.includes(to as TicketState)) return true;
    for (const s of frontier) seen.add(s);
    frontier = [...new Set(frontier.flatMap(next))].filter((s) => !seen.has(s));
  }
  return false;
}

/** An icon per state, for cards and threads. */
export const stateIcons: Record<TicketState, string> = {
  new: '🆕',
  open: '📂',
  invited: '📨',
  inprogress: '🎥',
  done: '✅',
  closed: '🔒',
  rejected: '⛔',
  declined: '🙅',
  expired: '⌛',
  cancelled: '🚫',
};

export const stateIcon = (state: string | undefined) => (isKnownState(state) ? stateIcons[state] : '❔');
