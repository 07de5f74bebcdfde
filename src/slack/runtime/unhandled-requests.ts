import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, type ReceiverDispatchErrorHandlerArgs } from '@slack/bolt';
import type { Logger } from '../../observability/logger.js';

/**
 * The HTTP receiver's answer to a request it has no route for (`dispatchErrorHandler`): a 404 with a
 * debug line, where Bolt's default writes an info line per request. Anyone can send such requests
 * (scanners; a Prometheus scraping `/metrics` while METRICS is off): they must not fill the log. A
 * failure to start handling a request is still an error line, without its body.
 */
export const answerUnhandled =
  (logger: Logger) =>
  ({ error, request, response }: ReceiverDispatchErrorHandlerArgs): void => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname.slice(0, 200);
    if ((error as { code?: unknown }).code === ErrorCode.HTTPReceiverDeferredRequestError) {
      logger.debug({ method: request.method, path }, 'a request to a path this server does not serve: 404');
      if (!response.headersSent) response.writeHead(404).end();
      return;
    }
    logger.error({ err: error, method: request.method, path }, 'a request could not be handled');
    if (!response.headersSent) response.writeHead(500).end();
  };

/**
 * The same answer for Bolt's Socket Mode receiver, which has no such handler (it writes an info line
 * per unserved request): a last custom route that takes every other path and method.
 */
export const notFoundRoute = (logger: Logger) => ({
  path: '{/*rest}',
  method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  handler: (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname.slice(0, 200);
    logger.debug({ method: request.method, path }, 'a request to a path this server does not serve: 404');
    request.resume();
    if (!response.headersSent) response.writeHead(404).end();
  },
});
