import { describe, expect, it } from 'vitest';
import { stepIds } from '../../../src/domain/workflow-steps.js';
import { handleCreateConferenceStep } from '../../../src/slack/steps/create-conference.js';
import { fakeSlack, stepDeps, stepRun, usePlatform, userContext } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/** The *Create a video conference* step, called as Bolt calls it, over the simulator. */
const platform = usePlatform();
const conferences = () => [...platform.sim.state.conferences.values()];
const start = Math.floor(new Date('2027-04-02T14:00:00Z').getTime() / 1000);

describe('the Create a video conference step', () => {
  it('creates the conference for the person Slack vouches for, posts its card and completes with its id and links', async () => {
    const slack = fakeSlack();
    const { deps, conferenceCards } = stepDeps(platform.client, slack);
    const { args, completed, failed } = stepRun(slack, {
      callbackId: stepIds.createConference,
      inputs: {
        run_as: userContext(people.alice.id),
        title: 'Weekly sync from a workflow',
        participants: [people.bob.id],
        guests: 'guest@example.com, +33 6 11 22 33 44',
        start,
        duration: 45,
        channel: 'C1',
      },
    });
    await handleCreateConferenceStep(deps)(args);
    expect(failed).toEqual([]);
    const made = conferences().find((c) => c.name === 'Weekly sync from a workflow');
    expect(made).toBeDefined();
    expect(made?.participants).toEqual(
      expect.arrayContaining(['guest@example.com', '+33611223344', 'bob@acme.example']),
    );
    expect(made?.duration).toBe(45);
    // Alice moderates it: her own account, not the bot's.
    const alice = [...platform.sim.state.users.values()].find((u) => u.email === people.alice.email);
    expect(made?.moderatorId).toBe(alice?.id);
    expect(conferenceCards.map((p) => p.what)).toEqual(['postConferenceCard']);
    expect(completed).toEqual([
      {
        conference_id: String(made?.id),
        join_link: expect.stringMatching(/^https?:\/\//),
        card_link: 'https://acme.slack.test/1.000000',
      },
    ]);
  });

  it('refuses a step whose person is only a user id typed by the builder, creating nothing', async () => {
    const slack = fakeSlack();
    const before = conferences().length;
    const { args, completed, failed } = stepRun(slack, {
      callbackId: stepIds.createConference,
      // No user_context: the admin's id in a plain input is the builder's word, not Slack's.
      inputs: { user_id: people.admin.id, run_as: people.admin.id, title: 'Sneaky', start, channel: 'C1' },
    });
    await handleCreateConferenceStep(stepDeps(platform.client, slack).deps)(args);
    expect(completed).toEqual([]);
    expect(failed).toEqual([expect.stringContaining('“Run as” input to “Person who used this workflow”')]);
    expect(conferences()).toHaveLength(before);
    expect(slack.calls).toEqual([]);
  });

  it('fails with the input to fix when the start is missing', async () => {
    const slack = fakeSlack();
    const { args, failed } = stepRun(slack, {
      callbackId: stepIds.createConference,
      inputs: { run_as: userContext(people.alice.id), title: 'No start', channel: 'C1' },
    });
    await handleCreateConferenceStep(stepDeps(platform.client, slack).deps)(args);
    expect(failed).toEqual([expect.stringMatching(/input “start” is not valid: The start is missing/)]);
  });

  it('fails in the channel’s language: French in a French channel, English in an English one', async () => {
    const run = async (channel: 'en' | 'fr') => {
      const slack = fakeSlack();
      const { deps } = stepDeps(platform.client, slack);
      const { args, completed, failed } = stepRun(slack, {
        callbackId: stepIds.createConference,
        // Nobody to invite: the service refuses it.
        inputs: { run_as: userContext(people.alice.id), title: 'Nobody', start, channel: 'C1' },
      });
      await handleCreateConferenceStep({ ...deps, locales: { ...deps.locales, channel } })(args);
      expect(completed).toEqual([]);
      return failed;
    };
    expect(await run('fr')).toEqual([
      'Ajoutez au moins un e-mail, un numéro de téléphone ou une personne de Slack à inviter.',
    ]);
    expect(await run('en')).toEqual(['Add at least one e-mail, phone number or Slack person to invite.']);
  });
});
