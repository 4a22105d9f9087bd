/**
 * Fingerprints (SET-OF-MARKS §7): what identifies a labelled element, so an action on label N
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

/** Same-tag sibling indexes, computed per parent on first use (one pass builds many paths). */
export class PathCache {
  private index = new Map<Element, number>();

  private nth(el: Element): number {
    const known = this.index.get(el);
    if (known !== undefined) return known;
    const parent: ParentNode | null = el.parentNode;
    if (!parent) return 1;
    const counts = new Map<string, number>();
    for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
      const n = (counts.get(c.localName) ?? 0) + 1;
      counts.set(c.localName, n);
      this.index.set(c, n);
    }
    return this.index.get(el) ?? 1;
  }

  path(el: Element): string {
    const steps: string[] = [];
    for (let cur: Element | null = el; cur;) {
      steps.push(`${cur.localName}:${this.nth(cur)}`);
      const parent: Node | null = cur.parentNode;
      if (parent instanceof ShadowRoot) {
        steps.push('#shadow');
        cur = parent.host;
      } else {
        cur = parent instanceof Element ? parent : null;
      }
    }
    return steps.reverse().join('>');
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
