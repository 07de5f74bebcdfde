/*
 * A fair share of the event loop for deferred work. Slack needs every request acked within 3 s;
 * what happens after an ack (platform calls, cards) can wait a few milliseconds. Work that awaits
 * `nextTurn()` resumes on a later turn of the loop, at most `perTurn` at a time, so that a burst of
 * it (hundreds of commands resuming when one shared lookup answers) never holds back the acks of
 * requests arriving meanwhile: between two batches, the loop reads the sockets and acks.
 */
const perTurn = 16;
/*
 * The loop's own setImmediate, taken once: the queue below is the process's, and one turn scheduled
 * on a test's fake clock (which never runs it) would leave it marked scheduled for every later caller.
 */
const later = setImmediate;
const waiting: (() => void)[] = [];
let scheduled = false;

function release(): void {
  scheduled = false;
  for (const resolve of waiting.splice(0, perTurn)) resolve();
  if (waiting.length) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  later(release);
}

/** Resolves on a later turn of the event loop, in arrival order, a few callers per turn. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}
