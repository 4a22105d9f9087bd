/**
 * Waiting in the page: DOM quiet after an action (waitForQuiet), and before an observation the
 * page a person would see (pageReady: custom elements defined, fonts ready, network quiet; what
 * and how long: src/core/settle.ts).
 */
import { DEFINED_POLL_MS, partCaps, pendingTags, quietAt, type SettleReport } from '../src/core/settle';

/**
 * DOM quiet: resolves once no mutation has happened for quietMs (our own
 * overlay and select lists excluded), or at capMs.
 */
export function waitForQuiet(quietMs: number, capMs: number): Promise<{ quiet: boolean; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let quietTimer = 0;
    const finish = (quiet: boolean) => {
      observer.disconnect();
      clearTimeout(quietTimer);
      clearTimeout(capTimer);
      resolve({ quiet, ms: Math.round(performance.now() - started) });
    };
    const arm = () => {
      clearTimeout(quietTimer);
      quietTimer = window.setTimeout(() => finish(true), quietMs);
    };
    const observer = new MutationObserver((records) => {
      if (records.some((r) => !isOurs(r.target))) arm();
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const capTimer = window.setTimeout(() => finish(false), capMs);
    arm();
  });
}

function isOurs(node: Node): boolean {
  const el = node instanceof Element ? node : node.parentElement;
  return !!el?.closest('[data-wa-ui]');
}

/** Tag names this document waited for up to the cap once and will not wait for again. */
const givenUp = new Set<string>();

/** The document and the open shadow roots of its custom elements, nested ones too. */
function componentRoots(): Array<Document | ShadowRoot> {
  const roots: Array<Document | ShadowRoot> = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const el of Array.from(roots[i].querySelectorAll('*'))) {
      if (el.localName.includes('-') && el.shadowRoot) roots.push(el.shadowRoot);
    }
  }
  return roots;
}

/** Undefined tag names in these roots, without the given-up ones. */
function undefinedIn(roots: Array<Document | ShadowRoot>): string[] {
  const names: string[] = [];
  for (const root of roots) for (const el of Array.from(root.querySelectorAll(':not(:defined)'))) names.push(el.localName);
  return pendingTags(names, givenUp);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Part 1: until no element is undefined (polled; the isolated world has no customElements to
 * ask whenDefined), at most capMs. Names still pending then are given up for this document.
 * When something was defined meanwhile, one more frame (at most 100 ms) lets it render.
 */
async function definedPart(capMs: number): Promise<SettleReport['defined']> {
  const started = performance.now();
  let roots = componentRoots();
  let pending = undefinedIn(roots);
  if (!pending.length) return { ms: 0, pending };
  while (performance.now() - started < capMs) {
    await sleep(Math.min(DEFINED_POLL_MS, Math.max(0, capMs - (performance.now() - started))));
    const now = undefinedIn(roots);
    if (now.join() !== pending.join()) {
      roots = componentRoots(); // upgraded components bring shadow roots (and maybe inner components)
      pending = undefinedIn(roots);
    }
    if (!pending.length) break;
  }
  if (pending.length) for (const n of pending) givenUp.add(n);
  else await Promise.race([new Promise((r) => requestAnimationFrame(r)), sleep(100)]);
  return { ms: Math.round(performance.now() - started), pending };
}

async function fontsPart(capMs: number): Promise<SettleReport['fonts']> {
  const started = performance.now();
  if (document.fonts.status === 'loaded') return { ms: 0, ok: true };
  const ok = await Promise.race([document.fonts.ready.then(() => true, () => false), sleep(capMs).then(() => false)]);
  return { ms: Math.round(performance.now() - started), ok };
}

/** Part 3: NETWORK_QUIET_MS with no resource finishing (Resource Timing), at most capMs. */
async function networkPart(capMs: number): Promise<SettleReport['network']> {
  const started = performance.now();
  const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
  let last = entries.reduce((m, e) => Math.max(m, e.responseEnd), 0);
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries() as PerformanceResourceTiming[]) last = Math.max(last, e.responseEnd);
  });
  observer.observe({ type: 'resource' });
  try {
    for (;;) {
      const now = performance.now();
      if (now >= quietAt(last)) return { ms: Math.round(now - started), quiet: true };
      if (now - started >= capMs) return { ms: Math.round(now - started), quiet: false };
      await sleep(Math.min(quietAt(last) - now, capMs - (now - started)) + 1);
    }
  } finally {
    observer.disconnect();
  }
}

/** All three parts side by side, each capped, the whole at most capMs (`load` is the background's). */
export async function pageReady(capMs: number): Promise<SettleReport> {
  const started = performance.now();
  const caps = partCaps(capMs);
  const [defined, fonts, network] = await Promise.all([definedPart(caps.defined), fontsPart(caps.fonts), networkPart(caps.network)]);
  return { ms: Math.round(performance.now() - started), load: 0, defined, fonts, network };
}
