/**
 * Which links from a payload the page makes clickable: web, mail and phone links, and the page's
 * own paths (`/files/…`). A `javascript:` or `data:` URL in a bot's text stays text.
 */
export function safeHref(url: string): string | undefined {
  return /^(https?:|mailto:|tel:|\/(?!\/))/i.test(url.trim()) ? url.trim() : undefined;
}
