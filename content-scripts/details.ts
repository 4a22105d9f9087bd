/**
 * What the guards (src/core/guards.ts) need to know about a label's element that the mark does not
 * carry: the link it is or is inside (absolute URL) and whether that link downloads.
 */
import { state } from './labeler/state';

export function markDetails(label: number): { href: string | null; download: boolean } | null {
  const e = state().entries[label];
  if (!e) return null;
  const link = (e.el.closest('a[href], area[href]') ?? e.owner.closest('a[href], area[href]')) as HTMLAnchorElement | HTMLAreaElement | null;
  if (!link) return { href: null, download: false };
  return { href: link.href || null, download: link.hasAttribute('download') };
}
