import type { WebClient } from '@slack/web-api';
import { buildHome } from '../blocks/home.js';
import type { ConferenceSummary } from '../domain/conference.js';
import type { TicketSummary } from '../domain/ticket.js';
import type { Locale } from '../i18n/locale.js';
import type { Logger } from '../observability/logger.js';
import type { HomeService } from '../services/home.js';

/**
 * Publishes people's App Home (`views.publish`): on `app_home_opened`, what is known at once, then
 * the view as read (only when it shows something else); again after a change of theirs (a ticket on
 * it moved, anywhere, by anyone; something they removed there). Reads go through the Home service,
 * in the background lane and cached.
 */
export class HomeScreens {
  constructor(
    private readonly o: {
      slack: WebClient;
      /**
       * The client for other people's Homes, published again after a change (never waits on a 429
       * by itself, so it never pauses `slack`, which answers the person in front of Slack). Absent: `slack`.
       */
      background?: WebClient | undefined;
      home: HomeService;
      /** Each person's language (their cached Slack profile): their Home is written in it. */
      locale: (slackId: string) => Promise<Locale>;
      logger: Logger;
    },
  ) {}

  /** Home was opened: the kept view at once, then the fresh one if it differs. */
  async opened(slackId: string): Promise<void> {
    const locale = await this.o.locale(slackId);
    const first = buildHome(locale, await this.o.home.data(slackId, true));
    await this.publish(slackId, first);
    const data = await this.o.home.data(slackId);
    const fresh = buildHome(locale, data);
    if (JSON.stringify(fresh) !== JSON.stringify(first)) await this.publish(slackId, fresh);
    // An admin's first look starts the doctor: its verdict follows when it is in.
    if (data.admin?.doctor === 'checking') {
      await this.o.home.runDoctor();
      await this.publish(slackId, buildHome(locale, await this.o.home.data(slackId, true)));
    }
  }

  /** Publishes a person's Home again, read afresh (`forget` first to read their lists again too). */
  async refresh(slackId: string, forget = false): Promise<void> {
    if (forget) this.o.home.forget(slackId);
    await this.publish(slackId, buildHome(await this.o.locale(slackId), await this.o.home.data(slackId)));
  }

  /** Whether some Home shows this ticket (so its change is worth a summary). */
  shows(ticketId: string): boolean {
    return this.o.home.showing(ticketId);
  }

  /** A ticket changed: every Home that lists it is published again from the change (no platform read). */
  async ticketChanged(ticket: TicketSummary): Promise<void> {
    for (const slackId of this.o.home.ticketChanged(ticket)) {
      try {
        const locale = await this.o.locale(slackId);
        await this.publish(
          slackId,
          buildHome(locale, await this.o.home.data(slackId, true)),
          this.o.background,
        );
      } catch (error) {
        this.o.logger.warn({ err: error, user: slackId }, 'could not refresh a Home tab');
      }
    }
  }

  /** A conference changed from Slack: the Homes it concerns are read and published again (background lane). */
  async conferenceChanged(c: ConferenceSummary | { id: string; participants: string[] }): Promise<void> {
    const moderatorId = 'moderator' in c ? c.moderator?.id : undefined;
    for (const slackId of this.o.home.conferenceChanged({ ...c, moderatorId })) {
      try {
        const locale = await this.o.locale(slackId);
        await this.publish(slackId, buildHome(locale, await this.o.home.data(slackId)), this.o.background);
      } catch (error) {
        this.o.logger.warn({ err: error, user: slackId }, 'could not refresh a Home tab');
      }
    }
  }

  private async publish(
    slackId: string,
    view: ReturnType<typeof buildHome>,
    slack: WebClient = this.o.slack,
  ): Promise<void> {
    await slack.views.publish({ user_id: slackId, view });
  }
}
