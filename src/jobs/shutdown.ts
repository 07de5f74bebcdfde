/** What a shutdown left for the next start (said in one log line). */
export interface LeftForNextStart {
  /** Outbox items claimed but not posted: released as they were, the next start takes them at once. */
  released: number;
  /** Items whose post was under way when time ran out: checked in Slack before being posted again. */
  unknown: number;
  /** Channels whose digest was being sent when time ran out: due again at the next start. */
  digests: string[];
  /** Whether Slack's requests and their handlers all finished in time. */
  requestsFinished: boolean;
}

export const nothingLeft = (): LeftForNextStart => ({
  released: 0,
  unknown: 0,
  digests: [],
  requestsFinished: true,
});

/** What two stopped parts left together (distribution mode: every workspace's). */
export const addLeft = (a: LeftForNextStart, b: LeftForNextStart): LeftForNextStart => ({
  released: a.released + b.released,
  unknown: a.unknown + b.unknown,
  digests: [...a.digests, ...b.digests],
  requestsFinished: a.requestsFinished && b.requestsFinished,
});

/** The log line a shutdown ends with, e.g. "2 outbox items released, digest for C123 not finished…". */
export function describeLeft(left: LeftForNextStart, seconds: number): string {
  const parts = [
    left.released ? `${left.released} outbox item(s) released (posted at the next start)` : '',
    left.unknown
      ? `${left.unknown} post(s) still under way (checked in Slack at the next start before posting again)`
      : '',
    ...left.digests.map((c) => `digest for ${c} not finished: it runs again at the next start`),
    left.requestsFinished ? '' : 'Slack requests still being handled were cut off',
  ].filter(Boolean);
  return parts.length
    ? `stopped after ${seconds} s; left for the next start: ${parts.join('; ')}`
    : `stopped after ${seconds} s; nothing left for the next start`;
}

/** Waits for `work` until `deadline` (epoch ms); answers whether it finished in time. */
export async function within(work: Promise<unknown>, deadline: number): Promise<boolean> {
  if (!Number.isFinite(deadline)) return work.then(() => true);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((r) => {
    timer = setTimeout(() => r(false), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
