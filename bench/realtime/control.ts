import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * What the real-time bench's neighbour processes (the simulator, the Slack double) share: how each
 * announces itself to the bench and stops with it, and what the double records.
 */

/** One answered Web API call of the Slack double, as the bench reads it. */
export interface Recorded {
  method: string;
  channel: string | undefined;
  threadTs: string | undefined;
  /** The message posted (postMessage) or edited (update). */
  ts: string | undefined;
  ok: boolean;
  error: string | undefined;
  metadata: unknown;
  /** The ticket whose card this message is (the card's Refresh button value), if it is one. */
  card: string | undefined;
  text: string | undefined;
  at: number;
}

/**
 * Listens on a loopback port for the bench's questions, prints `<label> {…info, control}` for the
 * bench to read, and stops (`close`, then exit) on SIGTERM, SIGINT or when the bench goes.
 */
export async function serveControl(
  control: Server,
  label: string,
  info: Record<string, string>,
  close: () => Promise<void>,
): Promise<void> {
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
  console.log(`${label} ${JSON.stringify({ ...info, control: url })}`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    control.closeAllConnections();
    control.close();
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // The bench is the parent: if it goes, so does this process.
  process.on('disconnect', stop);
}
