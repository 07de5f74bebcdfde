import { describe, expect, it } from 'vitest';
import { handleConferenceCommand } from '../../../src/slack/commands/conference.js';
import {
  conferenceDeps,
  eventually,
  fakeSlack,
  notUsed,
  slash,
  usePlatform,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/**
 * `/conference` behind its verb table: a verb that answers at once answers in the ack; the others ack
 * with "Working…" and answer privately after, failures included.
 */
const platform = usePlatform();

const conferenceId = (name: string) =>
  String([...platform.sim.state.conferences.values()].find((c) => c.name === name)?.id);

function conference(user: string, text: string) {
  const slack = fakeSlack();
  const { deps } = conferenceDeps(platform.client, slack);
  const command = slash(slack, { user, text });
  return {
    slack,
    run: () => handleConferenceCommand({ ...deps, links: notUsed('links') })(command.args),
    ...command,
  };
}

describe('/conference', () => {
  it('answers help in the ack, built from its verb table', async () => {
    const { run, acks, replies } = conference(people.alice.id, 'help');
    await run();
    expect(acks.given).toEqual([expect.objectContaining({ response_type: 'ephemeral' })]);
    const help = JSON.stringify(acks.given);
    for (const verb of ['/conference list', '/conference password', '/conference media', '/conference help'])
      expect(help).toContain(verb);
    expect(replies.given).toEqual([]);
  });

  it('says what is missing, then the help, for a verb without its conference', async () => {
    const { run, acks } = conference(people.alice.id, 'show');
    await run();
    expect(JSON.stringify(acks.given)).toContain('/conference help');
  });

  it('shows a participant the conference after a "Working…" ack', async () => {
    const { run, acks, replies } = conference(people.alice.id, `show ${conferenceId('Weekly support sync')}`);
    await run();
    expect(JSON.stringify(acks.given)).toContain('…');
    await eventually(() => expect(replies.given).toHaveLength(1));
    expect(replies.given[0]).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    expect(replies.text()).toContain('Weekly support sync');
  });

  it('tells a person without an account how to get one, replacing the "Working…"', async () => {
    const { run, replies } = conference(people.nobody.id, `show ${conferenceId('Weekly support sync')}`);
    await run();
    await eventually(() => expect(replies.given).toHaveLength(1));
    expect(replies.given[0]).toMatchObject({ replace_original: true });
    expect(replies.text()).toContain('nobody@example.com');
  });
});
