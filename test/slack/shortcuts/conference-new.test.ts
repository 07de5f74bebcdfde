import { describe, expect, it } from 'vitest';
import { ids } from '../../../src/blocks/ids.js';
import { handleConferenceNew } from '../../../src/slack/shortcuts/conference-new.js';
import {
  conferenceDeps,
  eventually,
  fakeSlack,
  recorder,
  usePlatform,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

type Args = Parameters<ReturnType<typeof handleConferenceNew>>[0];

/** The global "New conference" shortcut: acked at once, then the create form, or the refusal, in a modal. */
const platform = usePlatform();

function shortcut(user: string) {
  const slack = fakeSlack();
  const { deps } = conferenceDeps(platform.client, slack);
  const ack = recorder();
  const args = {
    ack: ack.fn,
    shortcut: {
      type: 'shortcut',
      callback_id: ids.shortcuts.conferenceNew,
      trigger_id: 'T-1',
      user: { id: user },
    },
    client: slack.client,
  } as unknown as Args;
  return { slack, deps, ack, args };
}

describe('the New conference shortcut', () => {
  it('opens the create form for a person with a platform account, the moderator being them', async () => {
    const { slack, deps, ack, args } = shortcut(people.alice.id);
    await handleConferenceNew(deps)(args);
    expect(ack.given).toEqual([undefined]);
    await eventually(() => expect(slack.callsOf('views.open')).toHaveLength(1));
    const [open] = slack.callsOf('views.open');
    expect(open).toMatchObject({ trigger_id: 'T-1', view: { callback_id: ids.views.conferenceForm } });
    expect(JSON.stringify(open)).toContain(people.alice.id);
  });

  it('opens the refusal instead for a person without an account, saying how to get one', async () => {
    const { slack, deps, args } = shortcut(people.nobody.id);
    await handleConferenceNew(deps)(args);
    await eventually(() => expect(slack.callsOf('views.open')).toHaveLength(1));
    const text = JSON.stringify(slack.callsOf('views.open'));
    expect(text).toContain('nobody@example.com');
    expect(text).not.toContain(ids.views.conferenceForm);
  });
});
