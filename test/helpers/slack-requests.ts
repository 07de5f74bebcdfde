import { slackSignature } from '../../src/playground/slack-side.js';

export { slackSignature };

/** Sends a form-encoded slash command to the bot's receiver, signed (or tampered with, for tests). */
export async function sendCommand(
  url: string,
  secret: string,
  fields: Record<string, string>,
  options: { timestamp?: number; signature?: string | null } = {},
): Promise<Response> {
  const body = new URLSearchParams(fields).toString();
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': String(timestamp),
  };
  const signature =
    options.signature === undefined ? slackSignature(secret, timestamp, body) : options.signature;
  if (signature !== null) headers['x-slack-signature'] = signature;
  return fetch(`${url}/slack/events`, { method: 'POST', headers, body });
}

/** Sends any body, signed, to the bot's receiver: for the requests Slack's signature lets through as they are. */
export async function sendSigned(
  url: string,
  secret: string,
  body: string,
  contentType = 'application/x-www-form-urlencoded',
): Promise<Response> {
  const timestamp = Math.floor(Date.now() / 1000);
  return fetch(`${url}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(secret, timestamp, body),
    },
    body,
  });
}
