/**
 * What the guards (src/core/guards.ts) need to know about a label's element that the mark does not
 * carry: the link it is or is inside (absolute URL) and whether that link downloads.
 * linkDetails serves an element found at a point (point.ts) the same way.
 */
import { composedParent } from './labeler/dom';
import { state } from './labeler/state';

export interface LinkDetails { href: string | null; download: boolean }

/** The absolute URL of an <a href> / <area href> (SVG links too: their href is not a string). */
function hrefOf(link: Element): string | null {
  if (link instanceof HTMLAnchorElement || link instanceof HTMLAreaElement) return link.href || null;
  const raw = link.getAttribute('href') ?? link.getAttribute('xlink:href');
  try {
    return raw ? new URL(raw, link.ownerDocument.baseURI).href : null;
  } catch {
    return null;
  }
}

/** The link `el` is or is inside, in the flat tree (through slots and shadow hosts); null when none. */
export function linkOf(el: Element): Element | null {
  for (let n: Element | null = el; n; n = composedParent(n)) {
    if ((n.localName === 'a' || n.localName === 'area') && (n.hasAttribute('href') || n.hasAttribute('xlink:href'))) return n;
  }
  return null;
}

export function linkDetails(el: Element): LinkDetails {
  const link = linkOf(el);
  return link ? { href: hrefOf(link), download: link.hasAttribute('download') } : { href: null, download: false };
}

export function markDetails(label: number): LinkDetails | null {
  const e = state().entries[label];
  if (!e) return null;
  const own = linkDetails(e.el);
  return own.href !== null || e.owner === e.el ? own : linkDetails(e.owner);
}
