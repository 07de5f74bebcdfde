import type { PlatformFindings } from './findings.js';
import type { Page } from './schemas.js';

/**
 * Whether a short page's size could be the platform's page cap. A cap is a configured number: at
 * least the platform's own default page (10 for `/medias`, platform-facts.md), and round — a multiple
 * of 5 or a power of two (10, 16, 20, 25, 50, 64, 100…). A page of 11 or 37 items is the end of its
 * list, which keeps the walk of a ticket's growing events at one request (10 requests a minute).
 */
export const couldBeCap = (n: number) => n >= 10 && (n % 5 === 0 || (n & (n - 1)) === 0);

/** What one client remembers of its lists' walks, between walks. */
export class PageMemory {
  /** The longest page each list operation has returned: a shorter page of it cannot have been capped. */
  readonly longestPage = new Map<string, number>();
  /**
   * Lists whose last walk got the same page back for its next offset. Once is not proof: a list that
   * grew by exactly a page between two pages (a burst of new tickets while the next page waited for
   * the budget) looks the same; a platform that ignores `offset` does it at every walk.
   */
  readonly repeatedPage = new Set<string>();
}

/** Where a walk starts and how many items it asks a page for. */
export interface WalkStart {
  offset: number;
  limit: number;
}

/**
 * Walks every item of list `name` page by page (offset/limit), fetching a page only when needed.
 *
 * A page shorter than asked is not the end by itself: the platform may cap pages below `limit`
 * (platform-facts.md: the maximum page size is unpublished). `total`/`next_offset` decide when given;
 * otherwise a short page ends the walk only when it is knowable (shorter than the learned cap, than
 * a page this list already returned, which no cap could have cut, or of a size no one would choose
 * as a cap); else the next page is fetched, and if it has items the cap is learned and asked for.
 */
export async function* paginate<T>(
  name: string,
  fetchPage: (offset: number, limit: number) => Promise<Page<T>>,
  start: WalkStart,
  findings: PlatformFindings,
  memory: PageMemory,
): AsyncGenerator<T> {
  const asked = start.limit;
  let offset = start.offset;
  let previousFirst: string | undefined;
  /** A short page whose end was unknowable: if the next page has items, the platform caps at its size. */
  let unsure: { limit: number; got: number } | undefined;
  for (;;) {
    const cap = findings.learnedPageCap;
    const limit = cap === undefined ? asked : Math.min(asked, cap);
    const page = await fetchPage(offset, limit);
    const got = page.items.length;
    if (got === 0) return;
    // A platform that ignores `offset` would send the same page forever.
    const first = JSON.stringify(page.items[0]);
    if (first === previousFirst) {
      if (memory.repeatedPage.has(name))
        findings.guess(`${name}.offset`, 'ignored', 'the same page came back for the next offset, twice');
      else memory.repeatedPage.add(name);
      return;
    }
    if (previousFirst !== undefined) memory.repeatedPage.delete(name);
    previousFirst = first;
    // A cap makes every page but the last the same size: a longer page means the short one was not
    // cut (the list grew, or a cached page was older), so nothing is learned from it.
    if (unsure && got <= unsure.got) findings.pageCapped(unsure.limit, unsure.got);
    unsure = undefined;
    yield* page.items;
    const longest = memory.longestPage.get(name) ?? 0;
    memory.longestPage.set(name, Math.max(longest, got));
    if (page.nextOffset !== undefined) {
      if (page.nextOffset <= offset) return;
      if (got < limit) findings.pageCapped(limit, got); // fewer than asked, and more to come
      offset = page.nextOffset;
      continue;
    }
    offset += got;
    if (page.total !== undefined) {
      if (offset >= page.total) return;
      findings.pageCapped(limit, got);
      continue;
    }
    if (got >= limit) continue;
    // No cap cut a page shorter than the learned cap or than a page this list already returned, nor
    // one whose size no one would configure as a cap: the knowable ends cost no further request.
    const learned = findings.learnedPageCap;
    if (got < longest || !couldBeCap(got) || (learned !== undefined && got < learned)) return;
    unsure = { limit, got }; // unknowable without asking: the next page tells
  }
}
