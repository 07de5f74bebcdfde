import { checkBlocks, checkTexts } from './checks.js';
import type { DoubleContext } from './context.js';
import type { ResponseTarget } from './types.js';

/**
 * A POST to a response_url: replace/delete_original act on the message it is tied to, or else on what
 * the person who made the request sees (`respond`). Answers 400 `invalid_blocks`, nothing done, when
 * its blocks break Slack's limits.
 */
export function postToResponseUrl(
  ctx: DoubleContext,
  path: string,
  body: Record<string, unknown>,
): { status: number; body: Record<string, unknown> } {
  const { double } = ctx;
  if (!body.delete_original && !checkBlocks(double.violations, 'response_url', body, 'message'))
    return { status: 400, body: { ok: false, error: 'invalid_blocks' } };
  checkTexts(double.violations, 'response_url', body);
  double.responses.push({ path, body });
  const target = ctx.responseTargets.get(path.slice('/response/'.length));
  const i = target?.ts
    ? double.messages.findIndex((m) => m.channel === target.channel && m.ts === target.ts)
    : -1;
  const original = double.messages[i];
  if (original && body.delete_original) double.messages.splice(i, 1);
  else if (original && body.replace_original && body.response_type !== 'ephemeral') {
    original.text = body.text as string | undefined;
    original.blocks = body.blocks as unknown[] | undefined;
  } else respond(ctx, target, body);
  return { status: 200, body: { ok: true } };
}

/**
 * A response_url answer for a request whose person is known: replace/delete_original act on the
 * ephemeral it came from, `in_channel` posts in the channel, anything else is a new private answer.
 */
export function respond(
  { double, nextTs, addEphemeral }: DoubleContext,
  target: ResponseTarget | undefined,
  body: Record<string, unknown>,
): void {
  if (!target?.user) return;
  const original = double.ephemerals.findIndex((e) => e.id === target.ephemeral);
  if (original >= 0 && body.delete_original) {
    double.ephemerals.splice(original, 1);
    return;
  }
  const content = { text: body.text as string | undefined, blocks: body.blocks as unknown[] | undefined };
  const kept = double.ephemerals[original];
  if (kept && body.replace_original) {
    Object.assign(kept, content);
    return;
  }
  if (body.delete_original || (body.replace_original && target.ts)) return;
  if (body.response_type === 'in_channel') {
    double.messages.push({
      channel: target.channel,
      ts: nextTs(),
      ...content,
      thread_ts: target.thread_ts,
      metadata: undefined,
      user: double.botUserId,
    });
    return;
  }
  const ephemeral = addEphemeral(target.user, target.channel, target.thread_ts, content);
  // A command's later answers replace or delete its latest private one, as in Slack.
  if (target.command) target.ephemeral = ephemeral.id;
}
