import { buildDoctorReport } from '../../blocks/doctor.js';
import { textMessage } from '../../blocks/kit.js';
import { joinMd, md } from '../../blocks/mrkdwn.js';
import { phrase, t } from '../../blocks/text.js';
import { parseLinkCommand } from '../../domain/identity-link-text.js';
import type { ConferenceDeps, LinkDeps, MediaDeps } from '../deps.js';
import { replyError } from '../replies/reply-error.js';
import type { SlashCommand, Verb, VerbAnswer, VerbRun } from '../runtime/command-routes.js';
import { personLocale } from '../runtime/person-locale.js';
import { handleLinkCommand } from './identity-link.js';
import { peopleVerb } from './people.js';

/*
 * `/conference admin …`: the admins' tools, one more verb table under `/conference`'s. Their rights
 * are checked by the services they call (or the doctor's right, here), never by the words.
 */

/**
 * Distribution mode's settings (`slack/setup/`): the handler of `/conference admin settings`, which
 * that mode supplies; absent (one workspace), the row says the settings come from the environment.
 */
export interface SettingsDeps {
  workspaceSettings?: VerbRun<unknown, unknown> | undefined;
}

type AdminDeps = ConferenceDeps & MediaDeps & LinkDeps & SettingsDeps;

/** What an admin verb reads: the words after `admin`. */
interface AdminWords {
  args: string;
}

/** An admin verb, and how the help of a word it does not know names it (none: it is not listed). */
type AdminVerb = Verb<AdminWords, AdminDeps> & { known?: string };

/** The help, after the words `/conference admin` knows (`adminVerbs`). */
const adminUsage = (c: SlashCommand): VerbAnswer => {
  const known = Object.values(adminVerbs).flatMap((v: AdminVerb) => (v.known ? [md`\`${v.known}\``] : []));
  return { say: c.usage(t(c.locale, 'conference.problem.adminKnows', { verbs: joinMd(known, ', ') })) };
};

/** `admin doctor`: the doctor's report, privately (its right checked first). */
const doctor: VerbRun<AdminWords, AdminDeps> = ({ args }, c, deps) => {
  if (args.toLowerCase() !== 'doctor') return adminUsage(c);
  return {
    working: phrase('working.doctor'),
    later: async () => {
      await deps.access.require(c.user, 'admin.doctor');
      if (!deps.doctor) {
        await c.respond({
          response_type: 'ephemeral',
          replace_original: true,
          ...textMessage(
            md`The doctor is not available in this process: run \`npm run doctor\` beside the bot.`,
          ),
        });
        return;
      }
      const [report, locale] = await Promise.all([deps.doctor(), deps.locales.person(c.user)]);
      await c.respond({
        response_type: 'ephemeral',
        replace_original: true,
        ...buildDoctorReport(locale, report),
      });
    },
  };
};

/** `admin link @person <account>` and `admin unlink @person`; a link command it cannot read is told at once. */
const link: VerbRun<AdminWords, AdminDeps> = ({ args }, c, deps) => {
  const linking = parseLinkCommand(args);
  if (!linking) return adminUsage(c);
  if (linking.kind === 'bad') {
    c.usage(); // the words read back: the routes run this again in the admin's language (`usageShown`)
    return { say: textMessage(t(c.locale, linking.problem)) };
  }
  return {
    working: phrase(linking.kind === 'link' ? 'working.lookingUpAccount' : 'working.link'),
    later: async () => {
      const locale = await personLocale((u) => deps.access.locale(u), c.user);
      try {
        const message = await handleLinkCommand(deps, linking, { user: c.user, team: c.team, locale });
        await c.respond({ response_type: 'ephemeral', replace_original: true, ...textMessage(message) });
      } catch (error) {
        await replyError(
          { kind: 'command', respond: c.respond, log: c.log, channel: c.channel, locale },
          error,
        );
      }
    },
  };
};

/**
 * `admin settings`: in distribution mode, the workspace's settings form (the handler that mode
 * supplies); with one workspace, the settings come from the environment.
 */
const settings: VerbRun<AdminWords, AdminDeps> = (words, c, deps) => {
  if (words.args.trim().toLowerCase() !== 'settings') return adminUsage(c);
  if (deps.workspaceSettings) return deps.workspaceSettings(words, c, deps);
  return {
    say: textMessage(
      md`This confdesk serves one workspace: its settings come from its environment (\`.env\`, see the README's *Configuration*). \`/conference admin settings\` is for confdesk installed with Add to Slack.`,
    ),
  };
};

/** The admin verbs, in the order of their lines in `/conference`'s help. */
const adminVerbs: Record<string, AdminVerb> = {
  doctor: {
    known: 'doctor',
    usage: ['conference.help.adminDoctor'],
    run: doctor,
  },
  people: {
    known: 'people [search]',
    usage: ['conference.help.adminPeople'],
    run: peopleVerb,
  },
  groups: { known: 'groups', usage: [], run: peopleVerb },
  link: {
    known: 'link @person <account>',
    usage: ['conference.help.adminLink'],
    run: link,
  },
  unlink: { known: 'unlink @person', usage: [], run: link },
  settings: {
    usage: ['conference.help.adminSettings'],
    run: settings,
  },
};

/** The word that names an admin verb: the first, up to anything that is not a letter. */
const adminWord = (args: string) => /^[a-z]+\b/i.exec(args)?.[0]?.toLowerCase() ?? '';

/** `/conference admin …` as a verb of `/conference`: its help lines are the admin verbs'. */
export const adminVerb: Verb<AdminWords, AdminDeps> = {
  usage: Object.values(adminVerbs).flatMap((v) => v.usage),
  run: (words, c, deps) => {
    const word = adminWord(words.args);
    const verb = Object.hasOwn(adminVerbs, word) ? adminVerbs[word] : undefined;
    return verb ? verb.run(words, c, deps) : adminUsage(c);
  },
};
