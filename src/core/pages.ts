/**
 * Pages the agent may work on: web pages (http/https), except those Chrome does not let extensions
 * touch (the Chrome Web Store). Anything else (chrome://, file://, the PDF viewer's own pages, about:)
 * stops the run with the reason.
 */
/** The Chrome Web Store, new and old addresses. */
const STORE = /^(chromewebstore\.google\.com\/|chrome\.google\.com\/webstore)/;

/** null when the agent may work on `url`; otherwise why not, for the person. */
export function whyNotAllowed(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `the tab shows "${url || 'nothing'}", not a web page`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `the tab moved to ${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}, a page extensions may not control`;
  if (STORE.test(`${u.hostname}${u.pathname}`)) {
    return 'the tab moved to the Chrome Web Store, where Chrome does not let extensions act';
  }
  return null;
}

/** Why, when Chrome does not even show us the tab's URL (it does so only for pages we may access). */
export const UNSEEN_PAGE = 'the tab moved to a browser page (such as chrome:// or the Chrome Web Store) that extensions may not control';
