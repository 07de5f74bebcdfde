import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import type { DoctorReport } from '../domain/doctor-report.js';
import type { ReactionEmoji } from '../domain/reactions.js';
import type { Locale } from '../i18n/locale.js';
import type { Logger } from '../observability/logger.js';
import type { HomeScreens } from '../outbound/home-screens.js';
import type { SlackPublisher } from '../outbound/publisher.js';
import type { AccessService } from '../services/access.js';
import type { ConferenceService } from '../services/conferences.js';
import type { DigestService } from '../services/digest.js';
import type { DigestScheduleService } from '../services/digest-schedules.js';
import type { Directory } from '../services/directory.js';
import type { IdentityService } from '../services/identity.js';
import type { IdentityLinkService } from '../services/identity-links.js';
import type { MediaService } from '../services/media.js';
import type { PeopleService } from '../services/people.js';
import type { SubscriptionService } from '../services/subscriptions.js';
import type { TicketService } from '../services/tickets.js';
import type { UnfurlService } from '../services/unfurls.js';
import type {
  DigestRepository,
  OutboxRepository,
  ReminderRepository,
  SettingsRepository,
  SubscriptionRepository,
  TicketCardRepository,
} from '../store/store.js';

/*
 * What the listeners need, by surface family, in one module below every surface folder (a surface
 * never imports another: what two share lives in the folders beside them, `openers/`, `input/`,
 * `replies/` and `runtime/`).
 */

/**
 * The languages the listeners write in: a channel's (cards, thread lines, unfurls, the digest: the
 * workspace's `CHANNEL_LANGUAGE`, or its setting in distribution mode) and one person's (ephemeral
 * answers, modals, App Home, DMs: their Slack locale, at most a second's wait, English if unknown).
 */
export interface Locales {
  channel: Locale;
  person: (user: string) => Promise<Locale>;
}

/** What the ticket listeners need. */
export interface TicketDeps {
  tickets: TicketService;
  /** The policy applied to a Slack person (`domain/policy.ts`). */
  access: AccessService;
  /** Where the bot posted each ticket's cards. */
  store: TicketCardRepository;
  /** What channels watch and follow: the listeners' writes go through it. */
  subscriptions: SubscriptionService;
  /** Posts and refreshes ticket cards, queues thread lines: every ticket change ends there. */
  publisher: SlackPublisher;
  logger: Logger;
  /** The emoji of the channels' reactions (`REACTION_*`); unset: 🎫 :ticket:, 👀 :eyes:, ✅ :white_check_mark:. */
  reactions?: ReactionEmoji | undefined;
  /** The channel's language and each person's. */
  locales: Locales;
}

/** What the conference listeners need: the services, a logger and a clock. */
export interface ConferenceDeps {
  conferences: ConferenceService;
  /** The channel's language (cards, the digest preview) and each person's (replies, the form, the doctor's report). */
  locales: Locales;
  identity: IdentityService;
  /** The policy applied to a Slack person (`domain/policy.ts`). */
  access: AccessService;
  /** Where conference cards go out to Slack. */
  publisher: Pick<SlackPublisher, 'postConferenceCard' | 'showConferenceCard' | 'conferenceChanged'>;
  logger: Logger;
  now: () => Date;
  /** For `/conference digest` (the channel's daily statistics): its schedules and its figures. */
  schedules: DigestScheduleService;
  digests: DigestService;
  /** `/conference admin doctor`: runs the doctor (absent: the command says it is not wired). */
  doctor?: (() => Promise<DoctorReport>) | undefined;
  /** `/conference admin people|groups` and `/conference password` (absent: not wired). */
  people?: PeopleService | undefined;
}

/** What App Home's listeners need: the Homes (publish, refresh) and what its buttons change. */
export interface HomeDeps {
  homes: Pick<HomeScreens, 'opened' | 'refresh'>;
  access: AccessService;
  store: Pick<SubscriptionRepository, 'subscriptionsBy' | 'removeSubscription'> &
    Pick<DigestRepository, 'digestSchedules' | 'removeDigestSchedule'> &
    Pick<OutboxRepository, 'requeueDead'>;
  logger: Logger;
}

/** What App Home's reminder settings need: the policy, where the choice is kept, the Homes to refresh. */
export interface ReminderDeps {
  access: AccessService;
  /** The person's language (a failure told on App Home). */
  locales: Locales;
  store: Pick<ReminderRepository, 'setReminderPrefs'>;
  homes: Pick<HomeScreens, 'refresh'>;
  logger: Logger;
}

/** What the digest listeners need. */
export interface DigestDeps {
  schedules: DigestScheduleService;
  identity: IdentityService;
  access: AccessService;
  digests: DigestService;
  logger: Logger;
  now: () => Date;
  /** The channel's language (the digest preview) and each person's (replies, the form). */
  locales: Locales;
}

/** What the People and Groups screens and the password reset need. */
export interface PeopleDeps {
  people: PeopleService;
  logger: Logger;
  /** Each admin's language (the screens are theirs alone). */
  locales: Locales;
  /** About how long the platform's rate budget will hold the next interactive call, in ms. */
  waitMs: () => number;
}

/** What the ticket listeners that open or answer a form need: also how long the platform will take. */
export type TicketFormDeps = TicketDeps & {
  /** About how long the platform's rate budget will hold the next interactive call, in ms. */
  waitMs: () => number;
};

/** What the media library's listeners need (and the card buttons that share a media). */
export interface MediaDeps {
  media: MediaService;
  /** The person's language (the library, its forms) and the channel's (a shared file's comment). */
  locales: Locales;
  access: AccessService;
  identity: IdentityService;
  logger: Logger;
  /** About how long the platform's rate budget will hold the next interactive call, in ms. */
  waitMs: () => number;
}

/** A view submission's listener arguments, as Bolt gives them (`handleX(deps)` returns such a listener). */
export type ViewSubmission = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** What the type-ahead menus need: the directory in memory and the rights of the person typing. */
export interface PickerDeps {
  directory: Directory;
  access: AccessService;
  logger: Logger;
}

/** `/conference admin link|unlink`: the links between Slack people and platform accounts. */
export interface LinkDeps {
  links: IdentityLinkService;
}

/** What the Workflow Builder steps need (`steps/`): the services they share with /conference and /ticket. */
export interface StepDeps {
  conferences: ConferenceService;
  tickets: TicketService;
  /** The channel a ticket's card is posted in watches it, as with /ticket. */
  subscriptions: Pick<SubscriptionService, 'watch'>;
  publisher: Pick<SlackPublisher, 'postCard' | 'postConferenceCard' | 'permalink' | 'ticketChanged'>;
  logger: Logger;
  /** How long a step's platform request may wait for the rate budget's grant (default 60 s). */
  stepGrantMs?: number | undefined;
  /** The executions already run (Slack sends `function_executed` again when its ack was late). */
  receipts: Pick<SettingsRepository, 'firstDelivery'>;
  /** The channel's language: what a step says when it fails. */
  locales: Pick<Locales, 'channel'>;
}

/** What link unfurls need: the unfurls' use case (its reads in the background lane) and a logger. */
export interface UnfurlDeps {
  unfurls: Pick<UnfurlService, 'target' | 'preview' | 'forget'>;
  logger: Logger;
  /** The unfurls are the channel's: its language. */
  locales: Pick<Locales, 'channel'>;
}

/** What the listeners need, as `app.ts` builds it once: the services, the store, a logger, a clock. */
export type Deps = ConferenceDeps &
  TicketDeps &
  HomeDeps &
  PickerDeps &
  PeopleDeps &
  MediaDeps &
  ReminderDeps &
  LinkDeps &
  UnfurlDeps & {
    /** The channel's language and each person's. */
    locales: Locales;
    /**
     * Distribution mode: forgets the workspace on uninstall or when its bot token is
     * revoked (unset with one workspace).
     */
    forgetWorkspace?: ((team: string, at?: Date) => Promise<void>) | undefined;
    /** About how long the platform's rate budget will hold the next interactive call, in ms. */
    waitMs: () => number;
    /** The Slack events already taken, by `event_id` (a retry of one is not acted on twice). */
    receipts: Pick<SettingsRepository, 'firstDelivery'>;
  };
