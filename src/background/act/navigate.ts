/**
 * Actions that move the tab (back, forward, reload, an address, the start page, an app) and key
 * presses, where browser shortcuts are done for what they mean (core/action/shortcuts.ts): keys
 * sent through the debugger reach the page only, never the browser's own commands.
 */
import { browserShortcut, canonicalKeys } from '../../core/action/shortcuts';
import * as cdp from '../cdp';
import { keyEventsFor } from './keys';
import type { ActResult } from './types';

/** Back (-1) or forward (+1) in the tab's history, only to a web page: the tab's blank first page would end the run. */
export async function historyStep(tabId: number, delta: -1 | 1): Promise<ActResult> {
  const h = await cdp.send<{ currentIndex: number; entries: { id: number; url: string }[] }>(tabId, 'Page.getNavigationHistory');
  const entry = h.entries[h.currentIndex + delta];
  if (!entry || !/^https?:/i.test(entry.url)) {
    return { ok: false, error: delta < 0 ? 'There is no previous web page to go back to.' : 'There is no next web page to go forward to.' };
  }
  await cdp.send(tabId, 'Page.navigateToHistoryEntry', { entryId: entry.id });
  return { ok: true };
}

function webUrl(url: string): URL | null {
  try {
    const u = new URL(url.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

export async function openUrl(tabId: number, url: string): Promise<ActResult> {
  const u = webUrl(url);
  if (!u) return { ok: false, error: `"${url.slice(0, 200)}" is not a web address; only http:// and https:// addresses can be opened.` };
  await chrome.tabs.update(tabId, { url: u.href });
  return { ok: true };
}

export async function openApp(tabId: number, name: string, apps: { name: string; url: string }[]): Promise<ActResult> {
  const want = name.trim().toLowerCase();
  const app = apps.find((a) => a.name.trim().toLowerCase() === want);
  if (!app) {
    const known = apps.map((a) => `"${a.name}"`).join(', ');
    // a desktop or phone app cannot be opened from a browser tab: only sites the person listed as apps
    return { ok: false, error: known ? `There is no app "${name}": apps cannot be opened from a browser, only these sites the user listed as apps: ${known}.` : `There is no app "${name}": apps cannot be opened from a browser, and the user listed no sites as apps. Open a URL instead.` };
  }
  return openUrl(tabId, app.url);
}

const FIND_KEYS = new Set(['control+f', 'meta+f', 'control+g', 'meta+g', 'control+shift+g', 'shift+meta+g', 'f3', 'shift+f3']);

/** A key or combination: browser shortcuts done for what they mean or refused with why; page keys sent. */
export async function pressKeys(tabId: number, keys: string): Promise<ActResult> {
  switch (browserShortcut(keys)) {
    case 'back': return historyStep(tabId, -1);
    case 'forward': return historyStep(tabId, 1);
    case 'reload':
      await cdp.send(tabId, 'Page.reload', { ignoreCache: /shift/i.test(keys) });
      return { ok: true };
    case 'address':
      return { ok: true, note: `The browser's address bar cannot be reached with ${keys}. To open a web address, type it next, without clicking anything first: text typed then is opened as an address.` };
    case 'newTab':
      return { ok: false, error: `${keys} would open a new tab; the browser's tabs, windows and menus cannot be used, only the page in this tab. Open the page here instead: type its address, or click its link.` };
    case 'closeTab':
      return { ok: false, error: `${keys} would close the tab; the browser's tabs, windows and menus cannot be used, only the page in this tab. To leave this page, go back or open another address.` };
    case 'other-browser':
      return { ok: false, error: FIND_KEYS.has(canonicalKeys(keys))
        ? `${keys} would open the browser's find bar, which cannot be used. Scroll through the page and read it, or use the site's own search.`
        : `${keys} is a browser shortcut (tabs, windows, menus, bookmarks, history, zoom, developer tools); those cannot be used, only the page itself. Use the page's own controls instead.` };
    case null: {
      const built = keyEventsFor(keys);
      if (!built.ok) return built;
      await cdp.keyEvents(tabId, built.events);
      return { ok: true };
    }
  }
}
