import { describe, expect, it } from 'vitest';
import { textMessage } from '../../src/blocks/kit.js';
import { md } from '../../src/blocks/mrkdwn.js';
import { ephemeral } from '../../src/slack/replies/ephemeral.js';
import type { Responder } from '../../src/slack/replies/reply-error.js';

/*
 * The way out to Slack takes only a builder's text: `npx tsc --noEmit` checks the lines marked
 * @ts-expect-error below (an unused expectation is an error too), so a raw string cannot come back.
 */
/** Type-checked, never run. */
const compileOnly = (_lines: () => void) => undefined;
compileOnly(() => {
  const respond: Responder = async () => undefined;
  const name = 'INJ-<!here>-1';
  // @ts-expect-error a template string is not mrkdwn the bot vouches for
  void respond({ response_type: 'ephemeral', text: `Delete ${name}?` });
  // @ts-expect-error ephemeral() takes md`…` or a builder's message, not a string
  void ephemeral(`Deleted ${name}.`);
});

describe('replies to a person', () => {
  it('are built from md`…`, so an outside value in them is escaped', async () => {
    const sent: unknown[] = [];
    const respond: Responder = async (m) => sent.push(m);
    await respond({ response_type: 'ephemeral', ...textMessage(md`Delete ${'INJ-<!here>-1'}?`) });
    expect(sent).toEqual([{ response_type: 'ephemeral', text: 'Delete INJ-&lt;!here&gt;-1?' }]);
    expect(ephemeral(md`Deleted ${'<@UEVIL123>'}.`)).toEqual({
      response_type: 'ephemeral',
      replace_original: false,
      text: 'Deleted &lt;@UEVIL123&gt;.',
    });
  });
});
