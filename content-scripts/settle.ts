/**
 * Waiting in the page: after an action, until what it set going in the page has ended
 * (waitForQuiet: nothing, or the DOM and scrolling quiet and transitions ended), and before an
 * observation the page a person would see (pageReady: custom elements defined and rendered, fonts
 * ready, network quiet; what and how long: src/core/settle.ts).
 */
import {
  ACTION_ANIMATION_CAP_MS, animationToWait, awaitsRender, DEFINED_POLL_MS, nothingRendered, partCaps, pendingTags, quietAt,
  RENDER_QUIET_MS, renderGiveUp, renderQuietCap, renderVerdict, shrank, type ComponentLook, type SettleReport,
} from '../src/core/settle';
// the element a custom element inherits its visibility from: its slot, its parent, or its shadow root's host
import { composedParent, UI_ATTR } from './labeler/dom';

/**
 * DOM quiet window: resolves once no mutation has happened for quietMs (our own
 * overlay and select lists excluded), or at capMs. `also`: shadow roots to watch besides the
 * document (a mutation inside one is not seen from the document), and elements whose size
 * changing counts as a change too (layout).
 */
function quietWindow(quietMs: number, capMs: number, also?: { roots?: ShadowRoot[]; boxes?: Element[] }): Promise<{ quiet: boolean; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let quietTimer = 0;
    const finish = (quiet: boolean) => {
      observer.disconnect();
      resizes?.disconnect();
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
    const opts = { subtree: true, childList: true, attributes: true, characterData: true };
    observer.observe(document, opts);
    for (const root of also?.roots ?? []) observer.observe(root, opts);
    // a ResizeObserver reports each element once when observed: only a size other than that one is a change
    const sizes = new Map<Element, string>();
    const resizes = also?.boxes?.length ? new ResizeObserver((entries) => {
      let changed = false;
      for (const e of entries) {
        const size = `${e.contentRect.width}x${e.contentRect.height}`;
        if (sizes.has(e.target) && sizes.get(e.target) !== size) changed = true;
        sizes.set(e.target, size);
      }
      if (changed) arm();
    }) : null;
    for (const el of also?.boxes ?? []) resizes?.observe(el);
    const capTimer = window.setTimeout(() => finish(false), capMs);
    arm();
  });
}

/** Two animation frames (each at most 50 ms: a page whose frames stall is not waited for). */
async function twoFrames(): Promise<void> {
  for (let i = 0; i < 2; i++) await Promise.race([new Promise((r) => requestAnimationFrame(r)), sleep(50)]);
}

/** The page's transitions and animations that end soon (core/settle.ts animationToWait). */
function endingAnimations(): Animation[] {
  let all: Animation[];
  try {
    all = document.getAnimations();
  } catch {
    return [];
  }
  return all.filter((a) => {
    const t = a.effect?.getComputedTiming();
    const end = Number(t?.endTime ?? Infinity), now = Number(t?.localTime ?? 0), rate = Math.abs(a.playbackRate) || 1;
    return animationToWait({ playState: a.playState, remainingMs: (end - now) / rate });
  });
}

/**
 * After an action (what page/settle runs; the background's settleAction waits for navigations
 * and requests): looks for a frame or two whether the page is changing: a DOM mutation (our own
 * overlay and select lists excluded), a scroll anywhere (a smooth scroll still moving), a
 * transition or animation that ends within ACTION_ANIMATION_CAP_MS. When none, it returns at
 * once (`quiet`, and the few ms it looked). Otherwise it waits for those animations to end and
 * for quietMs with no mutation and no scroll, at most capMs in all.
 */
export async function waitForQuiet(quietMs: number, capMs: number): Promise<{ quiet: boolean; ms: number }> {
  const started = performance.now();
  let changed = false;
  let last = started;
  const touch = () => { changed = true; last = performance.now(); };
  const observer = new MutationObserver((records) => { if (records.some((r) => !isOurs(r.target))) touch(); });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  addEventListener('scroll', touch, { capture: true, passive: true });
  try {
    await twoFrames();
    const anims = endingAnimations();
    if (!changed && !anims.length) return { quiet: true, ms: Math.round(performance.now() - started) };
    const left = () => capMs - (performance.now() - started);
    if (anims.length) {
      await Promise.race([Promise.all(anims.map((a) => a.finished.catch(() => undefined))), sleep(Math.max(0, Math.min(ACTION_ANIMATION_CAP_MS, left())))]);
    }
    for (;;) {
      const now = performance.now();
      if (now - last >= quietMs) return { quiet: true, ms: Math.round(now - started) };
      if (left() <= 0) return { quiet: false, ms: Math.round(now - started) };
      await sleep(Math.max(1, Math.min(last + quietMs - now, left())));
    }
  } finally {
    observer.disconnect();
    removeEventListener('scroll', touch, { capture: true });
  }
}

function isOurs(node: Node): boolean {
  const el = node instanceof Element ? node : node.parentElement;
  return !!el?.closest('[data-wa-ui]');
}

/** Tag names this document waited for up to the cap once and will not wait for again. */
const givenUp = new Set<string>();
/** Tag names of components this document waited to render until the wait stalled: not waited for again. */
const renderGivenUp = new Set<string>();

/** One walk: the document and the open shadow roots of its custom elements (nested ones too), and those custom elements. */
interface Components { roots: Array<Document | ShadowRoot>; elements: Element[] }

function components(): Components {
  const roots: Array<Document | ShadowRoot> = [document];
  const elements: Element[] = [];
  for (let i = 0; i < roots.length; i++) {
    for (const el of Array.from(roots[i].querySelectorAll('*'))) {
      // our own hosts (the drawn marks, webagent-marks) are never defined as custom elements: not the page's to wait for
      if (!el.localName.includes('-') || el.hasAttribute(UI_ATTR)) continue;
      elements.push(el);
      if (el.shadowRoot) roots.push(el.shadowRoot);
    }
  }
  return { roots, elements };
}

/** Undefined tag names in these roots, without the given-up ones. */
function undefinedIn(roots: Array<Document | ShadowRoot>): string[] {
  const names: string[] = [];
  for (const root of roots) for (const el of Array.from(root.querySelectorAll(`:not(:defined):not([${UI_ATTR}])`))) names.push(el.localName);
  return pendingTags(names, givenUp);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Part 1: until no element is undefined (polled; the isolated world has no customElements to
 * ask whenDefined), at most capMs. Names still pending then are given up for this document.
 * When something was defined meanwhile, one more frame (at most 100 ms) lets it render.
 */
async function definedPart(capMs: number, found: Components): Promise<{ report: SettleReport['defined']; found: Components }> {
  const started = performance.now();
  let pending = undefinedIn(found.roots);
  if (!pending.length) return { report: { ms: 0, pending }, found };
  while (performance.now() - started < capMs) {
    await sleep(Math.min(DEFINED_POLL_MS, Math.max(0, capMs - (performance.now() - started))));
    const now = undefinedIn(found.roots);
    if (now.join() !== pending.join()) {
      found = components(); // upgraded components bring shadow roots (and maybe inner components)
      pending = undefinedIn(found.roots);
    }
    if (!pending.length) break;
  }
  if (pending.length) for (const n of pending) givenUp.add(n);
  else await Promise.race([new Promise((r) => requestAnimationFrame(r)), sleep(100)]);
  // the components defined meanwhile may have rendered their shadow roots: the rendered part walks again
  return { report: { ms: Math.round(performance.now() - started), pending }, found: components() };
}

/** The custom elements among these that have not rendered yet (core/settle.ts awaitsRender). */
function unrendered(elements: Iterable<Element>): Set<Element> {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const out = new Set<Element>();
  for (const el of elements) {
    if (!el.isConnected) continue;
    const look = (): ComponentLook => {
      const visibility = getComputedStyle(el).visibility;
      if (visibility === 'visible') return { visibility, parentVisibility: null, defined: true, boxed: true, rect: { left: 0, top: 0, right: 0, bottom: 0 } };
      const parent = composedParent(el);
      return {
        visibility,
        parentVisibility: parent ? getComputedStyle(parent).visibility : null,
        defined: el.matches(':defined'),
        boxed: el.checkVisibility(),
        rect: el.getBoundingClientRect(),
      };
    };
    if (awaitsRender(el.localName, look, vw, vh, renderGivenUp)) out.add(el);
  }
  return out;
}

/**
 * After the defined part: until no custom element in or near the viewport is hidden while its
 * context is visible (a component whose code has not arrived, so it has not rendered), polled,
 * at most capMs; the wait stops when none rendered (and no resource finished) for
 * RENDER_STALL_MS, and the tag names hidden that long are given up for this document. When
 * something rendered, a DOM and layout quiet window follows (RENDER_QUIET_MS, within the cap).
 */
async function renderedPart(capMs: number, found: Components): Promise<SettleReport['rendered']> {
  const started = performance.now();
  let pending = unrendered(found.elements);
  if (!pending.size) return nothingRendered();
  const waited = pendingTags(Array.from(pending, (el) => el.localName), new Set());
  const rendered = new Set<Element>();
  const seen = new Map<Element, number>(); // when each was first seen hidden
  for (const el of pending) seen.set(el, started);
  let progress = started;
  let polls = 0;
  const resources = new PerformanceObserver(() => { progress = performance.now(); polls = 0; }); // a component's code arriving
  resources.observe({ type: 'resource' });
  try {
    for (;;) {
      const now = performance.now();
      const verdict = renderVerdict({ pending: pending.size, elapsed: now - started, sinceProgress: now - progress, pollsSinceProgress: polls, capMs });
      if (verdict !== 'wait') break;
      await sleep(Math.max(0, Math.min(DEFINED_POLL_MS, capMs - (now - started))));
      polls++;
      const still = unrendered(pending);
      if (shrank(pending, still)) {
        progress = performance.now();
        polls = 0;
        for (const el of pending) if (!still.has(el)) rendered.add(el);
        found = components(); // what rendered may hold components of its own, hidden until they render
        pending = unrendered(found.elements);
        for (const el of pending) if (!seen.has(el)) seen.set(el, progress);
      }
    }
  } finally {
    resources.disconnect();
  }
  const names = pendingTags(Array.from(pending, (el) => el.localName), new Set());
  const end = performance.now();
  for (const n of renderGiveUp(Array.from(pending, (el) => ({ tag: el.localName, hiddenMs: end - (seen.get(el) ?? end) })))) renderGivenUp.add(n);
  const quietCap = renderQuietCap(rendered.size > 0, capMs - (performance.now() - started));
  const quiet = quietCap > 0
    ? await quietWindow(RENDER_QUIET_MS, quietCap, { roots: found.roots.filter((r): r is ShadowRoot => r instanceof ShadowRoot), boxes: Array.from(rendered) })
    : { ms: 0 };
  return { ms: Math.round(performance.now() - started), waited, pending: names, quietMs: quiet.ms };
}

/** Defined, then rendered, within one cap. */
async function componentsPart(capMs: number): Promise<Pick<SettleReport, 'defined' | 'rendered'>> {
  const started = performance.now();
  const { report: defined, found } = await definedPart(capMs, components());
  const rendered = await renderedPart(Math.max(0, capMs - (performance.now() - started)), found);
  return { defined, rendered };
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

/** The three parts (components defined then rendered, fonts, network) side by side, each capped, the whole at most capMs (`load` is the background's). */
export async function pageReady(capMs: number): Promise<SettleReport> {
  const started = performance.now();
  const caps = partCaps(capMs);
  const [{ defined, rendered }, fonts, network] = await Promise.all([componentsPart(caps.defined), fontsPart(caps.fonts), networkPart(caps.network)]);
  return { ms: Math.round(performance.now() - started), load: 0, defined, rendered, fonts, network };
}
