/**
 * A stop or failure reason as the person reads it: model markup stripped (think blocks' tags, box
 * and special tokens, <answer>), and, when it is long (a reason that quotes an unreadable reply),
 * one short line with the whole text a click away.
 */
const MARKUP = /<\/?(?:think|answer)>|<\s*\|[^|<>]{1,40}\|\s*>/gi;
const LINE_MAX = 160;

export interface ShownReason { line: string; more: string | null }

export function shownReason(reason: string | null | undefined): ShownReason {
  const whole = String(reason ?? '').replace(MARKUP, ' ').replace(/[ \t]+\n/g, '\n').replace(/[ \t]{2,}/g, ' ').trim();
  const flat = whole.replace(/\s+/g, ' ');
  if (flat.length <= LINE_MAX) return { line: flat, more: null };
  const cut = flat.slice(0, LINE_MAX);
  const atWord = cut.lastIndexOf(' ');
  return { line: `${(atWord > LINE_MAX / 2 ? cut.slice(0, atWord) : cut).replace(/[\s,;:.]+$/, '')}…`, more: whole };
}
