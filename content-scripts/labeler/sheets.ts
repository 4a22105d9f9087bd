/**
 * Style sheets from another origin (a CDN's, a web font's): the page uses their rules, but their
 * `cssRules` cannot be read from the page's side. The cursor and overflow rules the quick pass
 * looks for (quick-walk.ts) may be in them, so their text is fetched by the background
 * (src/background/sheets.ts: the same address the page loaded, without cookies, only when a pass
 * asks) and parsed here into a sheet of our own. A sheet whose text is not here in time stays
 * unread: the pass is then the walk's. The screens never use these texts (style-rules.ts).
 */

/** How long a pass waits for the texts it asked for (its first on a page of a site not seen). */
export const SHEET_WAIT_MS = 400;

interface Sheets {
  /** address → its rules (null: the address gave no sheet; absent: not known) */
  parsed: Map<string, CSSRuleList | null>;
  asked: Set<string>;
}
const KEY = Symbol.for('webagent.labeler.sheets');

function sheets(): Sheets {
  const g = globalThis as unknown as Record<symbol, Sheets | undefined>;
  return (g[KEY] ??= { parsed: new Map(), asked: new Set() });
}

/** The rules of an unreadable sheet's fetched text (none for an address that gave no sheet); null when not known. */
export function fetchedRules(sheet: CSSStyleSheet): CSSRuleList | null {
  const known = sheet.href ? sheets().parsed.get(sheet.href) : undefined;
  return known === undefined ? null : known ?? (empty ??= new CSSStyleSheet().cssRules);
}

let empty: CSSRuleList | undefined;

/** The addresses of this document's sheets whose rules cannot be read and are not fetched yet. */
function unread(): string[] {
  const s = sheets();
  const out: string[] = [];
  for (const sheet of Array.from(document.styleSheets)) {
    const href = sheet.href;
    if (!href || s.parsed.has(href) || s.asked.has(href) || !/^https?:/i.test(href)) continue;
    try {
      void sheet.cssRules;
    } catch {
      out.push(href);
    }
  }
  return out;
}

/**
 * Ask the background for the texts of the sheets that cannot be read, and wait for them at most
 * `waitMs`. Texts that come later are kept for the next pass.
 */
export async function fetchUnreadSheets(waitMs = SHEET_WAIT_MS): Promise<void> {
  // (the test harness runs the labeler in the page's own world, which has no extension to ask)
  if (typeof chrome === 'undefined' || !chrome.runtime?.sendMessage) return;
  const urls = unread();
  if (!urls.length) return;
  const s = sheets();
  for (const u of urls) s.asked.add(u);
  const got = Promise.resolve().then(() => chrome.runtime.sendMessage({ event: 'sheets/fetch', urls })).then((texts: unknown) => {
    for (const [url, text] of Object.entries((texts ?? {}) as Record<string, string | null>)) {
      const rules = parse(text);
      if (rules !== undefined) s.parsed.set(url, rules);
    }
  }, () => undefined);
  await Promise.race([got, new Promise((resolve) => setTimeout(resolve, waitMs))]);
}

/**
 * A fetched text's rules; null for an address that gave no sheet (the background could not reach
 * it: neither could the page, which loaded it moments before); undefined (unknown) for a text
 * that imports others (its imports are not fetched).
 */
function parse(text: string | null): CSSRuleList | null | undefined {
  if (text === null) return null;
  if (/@import/i.test(text)) return undefined;
  const sheet = new CSSStyleSheet();
  try {
    sheet.replaceSync(text);
  } catch {
    return undefined;
  }
  return sheet.cssRules;
}
