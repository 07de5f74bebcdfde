import { AsyncLocalStorage } from 'node:async_hooks';

/*
 * What the work in progress runs as, carried through everything it awaits or starts: the platform
 * lane it waits in (`platform/lane.ts`), the people's turn it serves if any (the same file), and the
 * listener or job it belongs to, for the last resort's log (`observability/last-resort.ts`).
 *
 * One store for the three: on Node 20 every AsyncLocalStorage in use costs every promise the process
 * makes (a hook copies each store's value onto it), on a person's ack path as anywhere, so three
 * stores cost three times what one does. A change makes a new frame; a frame is never changed.
 */
export interface WorkFrame {
  readonly lane?: string | undefined;
  readonly turn?: string | undefined;
  readonly name?: string | undefined;
  /** The deadline by which the work's platform requests must be granted (`platform/grant-deadline.ts`). */
  readonly grantBy?: GrantBy | undefined;
}

/** A deadline for the platform budget's grants, as the work frame carries it. */
export interface GrantBy {
  /** Aborts a wait for the budget at the deadline; undefined once the work wrote (it must then finish). */
  readonly signal: AbortSignal | undefined;
  readonly ms: number;
  remainingMs(): number;
  /** A write was granted: from here on the work finishes whatever it waits. */
  wrote(): void;
}

const frames = new AsyncLocalStorage<WorkFrame>();

/** The frame of the work in progress (undefined outside any). */
export const workFrame = (): WorkFrame | undefined => frames.getStore();

/** Runs `work` (and everything it awaits or starts) with `change` over the current frame. */
export const runWith = <T>(change: WorkFrame, work: () => T): T =>
  frames.run({ ...frames.getStore(), ...change }, work);
