/**
 * Fingerprints (docs/labeling.md): what identifies a labelled element, so an action on label N
 * can check that N still means the same thing before it acts.
 *
 * path: from the frame's document element down, one `tag:n` step per level (n = 1-based index
 * among same-tag siblings, like :nth-of-type), "#shadow" when crossing into a shadow root, e.g.
 * `html:1>body:1>x-app:1>#shadow>button:2`.
 *
 * Checking (resolveMark): the element must still be connected (else "detached"), and its tag and
 * stable text must be as recorded (else "changed"). A new path or rect is fine: moved elements
 * are still the same element.
 */
import type { Fingerprint } from '../../src/core/marks';

/**
 * Same-tag sibling indexes, computed per parent on first use, and paths per element, so one pass
 * building many paths walks each shared ancestor once.
 */
export class PathCache {
  private index = new Map<Element, number>();
  private paths = new Map<Element, string>();
  /** per parent, how far its children have been counted (a long list is counted up to the marks only) */
  private counting = new Map<ParentNode, { next: Element | null; counts: Record<string, number> }>();

  private nth(el: Element): number {
    const known = this.index.get(el);
    if (known !== undefined) return known;
    const parent: ParentNode | null = el.parentNode;
    if (!parent) return 1;
    let c = this.counting.get(parent);
    if (!c) {
      c = { next: parent.firstElementChild, counts: Object.create(null) as Record<string, number> };
      this.counting.set(parent, c);
    }
    for (let sib = c.next; sib; sib = sib.nextElementSibling) {
      const tag = sib.localName;
      const n = (c.counts[tag] ?? 0) + 1;
      c.counts[tag] = n;
      this.index.set(sib, n);
      if (sib === el) {
        c.next = sib.nextElementSibling;
        return n;
      }
    }
    c.next = null;
    return 1;
  }

  path(el: Element): string {
    // up to the first element with a known path (or the top), then down, remembering each
    const chain: Array<{ el: Element; shadow: boolean }> = [];
    let base = '';
    for (let cur: Element | null = el; cur;) {
      const known = this.paths.get(cur);
      if (known !== undefined) { base = known; break; }
      const parent: Node | null = cur.parentNode;
      const shadow: boolean = !!parent && parent.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in parent;
      chain.push({ el: cur, shadow });
      cur = shadow ? (parent as ShadowRoot).host : parent && parent.nodeType === Node.ELEMENT_NODE ? (parent as Element) : null;
    }
    let path = base;
    for (let i = chain.length - 1; i >= 0; i--) {
      const link = chain[i];
      const step = `${link.el.localName}:${this.nth(link.el)}`;
      path = path ? `${path}>${link.shadow ? '#shadow>' : ''}${step}` : step;
      this.paths.set(link.el, path);
    }
    return path;
  }
}

export function makeFingerprint(tag: string, text: string, path: string): Fingerprint {
  return { tag, text, path };
}

export type FingerprintCheck = { ok: true } | { ok: false; reason: 'detached' | 'changed'; detail: string };

/** Compare an element now with what was recorded (`stable`: the recorded stableText). */
export function checkFingerprint(
  el: Element, recorded: Fingerprint, stable: string, now: { tag: string; stable: string },
): FingerprintCheck {
  if (!el.isConnected) return { ok: false, reason: 'detached', detail: 'was removed from the page' };
  if (now.tag !== recorded.tag) return { ok: false, reason: 'changed', detail: `is now a <${now.tag}>, was a <${recorded.tag}>` };
  if (now.stable !== stable) {
    const was = stable.length > 60 ? stable.slice(0, 60) + '…' : stable;
    const is = now.stable.length > 60 ? now.stable.slice(0, 60) + '…' : now.stable;
    return { ok: false, reason: 'changed', detail: `now reads "${is}", was "${was}"` };
  }
  return { ok: true };
}
