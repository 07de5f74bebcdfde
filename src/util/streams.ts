import type { Readable } from 'node:stream';

const heard = () => undefined;

/**
 * Gives up on a stream the bot opened (a download it will not send on): destroyed at once, which
 * releases its connection, with its errors heard. Destroying an undici body makes it emit
 * `RequestAbortedError`, and an 'error' nobody listens to ends the process.
 */
export function discard(stream: Readable): void {
  stream.on('error', heard);
  if (!stream.destroyed) stream.destroy();
}
