/**
 * Answers like the least convenient real service (platform-facts.md, "Not published"): every switch
 * is a shape or a behaviour the real platform may well have and our client must survive.
 */
export interface SimQuirks {
  /** Empty objects written as `[]` (a PHP backend): event `data`, webhook `props`, `requestor`, `agent`, report sections. */
  emptyObjectsAsArrays: boolean;
  /** `/users/me` carries `enterpriseId` (camel case) instead of `enterprise_id`. */
  camelEnterpriseId: boolean;
  /** `orderby`/`order` on the ticket list are accepted and silently ignored (the default sort, start_time). */
  ignoreOrderBy: boolean;
  /** Pages hold at most this many items whatever `limit` asks (0: no cap). */
  pageCap: number;
  /** Only `X-RateLimit-Reset` is sent, never `X-RateLimit-Remaining`/`-Limit`. */
  onlyResetHeader: boolean;
  /** Join links under names we did not guess first (`links: {agent, guest}` on tickets, `joinLink` on conferences). */
  unknownJoinLinkNames: boolean;
  /** The static admin token is refused (401), as a 24-hour token is the day after. */
  expiredStaticToken: boolean;
  /**
   * Parameters of `POST /tickets` and `POST /conferences` accepted and silently not kept (a wire name
   * we guessed wrong looks like this): the record comes back without them.
   */
  ignoredCreateParams: string[];
  /** `conversationevent.create` webhooks carry only `props.ticketId` (not the event's name, time, source). */
  thinEventWebhooks: boolean;
}

/** Every quirk on: what `--quirks` and `quirks: true` select. */
export const allQuirks: SimQuirks = {
  emptyObjectsAsArrays: true,
  camelEnterpriseId: true,
  ignoreOrderBy: true,
  pageCap: 20,
  onlyResetHeader: true,
  unknownJoinLinkNames: true,
  expiredStaticToken: false,
  ignoredCreateParams: [],
  thinEventWebhooks: true,
};
export const noQuirks: SimQuirks = {
  emptyObjectsAsArrays: false,
  camelEnterpriseId: false,
  ignoreOrderBy: false,
  pageCap: 0,
  onlyResetHeader: false,
  unknownJoinLinkNames: false,
  expiredStaticToken: false,
  ignoredCreateParams: [],
  thinEventWebhooks: false,
};
