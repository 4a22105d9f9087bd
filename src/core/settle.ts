/**
 * Settling before an observation (docs/labeling.md, "Settling"): what the page is waited for
 * before it is labelled and shown to the model, the caps, and the report of the wait.
 *
 * 1. custom elements defined: no `:not(:defined)` element left in the document and its open
 *    shadow roots (a web-component library that loads late leaves raw, un-upgraded elements);
 *    tag names still undefined at the cap are given up for this document (a typo'd tag, a library
 *    that failed) and never waited for again;
 * 2. the document's fonts ready (document.fonts.ready), capped;
 * 3. a short network-quiet window: no resource finished in the last NETWORK_QUIET_MS (Resource
 *    Timing sees finished requests only), capped.
 * The three run side by side, and the whole wait is capped (READY_CAP_MS).
 */

export const READY_CAP_MS = 4000;
export const FONTS_CAP_MS = 1500;
export const NETWORK_QUIET_MS = 250;
export const NETWORK_CAP_MS = 1500;
/** how often the document is checked for undefined elements while waiting */
export const DEFINED_POLL_MS = 50;

export interface SettleReport {
  /** the whole wait (ms), load included */
  ms: number;
  /** waiting for the tab's load to complete (ms) */
  load: number;
  /** waiting for custom elements (ms); `pending`: tag names still undefined at the cap */
  defined: { ms: number; pending: string[] };
  fonts: { ms: number; ok: boolean };
  network: { ms: number; quiet: boolean };
}

/** Each part's cap within a total cap (no part waits past the whole). */
export function partCaps(capMs: number): { defined: number; fonts: number; network: number } {
  const cap = Math.max(0, capMs);
  return { defined: cap, fonts: Math.min(FONTS_CAP_MS, cap), network: Math.min(NETWORK_CAP_MS, cap) };
}

/** The undefined tag names worth waiting for: distinct, sorted, without those given up. */
export function pendingTags(localNames: Iterable<string>, givenUp: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const n of localNames) if (!givenUp.has(n)) out.add(n);
  return Array.from(out).sort();
}

/** When the network counts as quiet: NETWORK_QUIET_MS after the last finished request (performance.now ms). */
export function quietAt(lastFinished: number): number {
  return lastFinished + NETWORK_QUIET_MS;
}
