/**
 * What is readable of a reply still streaming in: the text of one section (e.g. after
 * "Thought:" up to "Action:") and the action line once it has started. Think blocks, GLM's
 * answer and box tokens and a tag cut in half by the stream are left out. Dialects call this
 * with their own section names (types.ts Dialect.preview).
 */
import type { Preview } from '../types';

/** The reply without its think block, answer/box tokens and a half-arrived tag. */
export function visibleText(content: string): string {
  let text = String(content ?? '');
  const open = text.indexOf('<think>');
  if (open >= 0) {
    const close = text.indexOf('</think>', open);
    text = text.slice(0, open) + (close < 0 ? '' : text.slice(close + '</think>'.length));
  }
  return text.replace(/<\/?answer>|<\|(?:begin|end|start)_of_box\|>/g, '').replace(/<[^>\s]*$/, '');
}

/**
 * `thought`: the text after `start` (or from the beginning when `start` is null or not there yet)
 * up to `action`; `action`: the first line after `action`, once it has begun.
 */
export function sectionPreview(content: string, start: string | null, action: string): Preview {
  const text = visibleText(content);
  const lower = text.toLowerCase();
  let from = 0;
  if (start) {
    const s = lower.indexOf(start.toLowerCase());
    if (s >= 0) from = s + start.length;
    else if (start.toLowerCase().startsWith(text.trim().toLowerCase())) return { thought: null, action: null }; // the label is arriving
  }
  const a = lower.indexOf(action.toLowerCase(), from);
  let thought = a >= 0 ? text.slice(from, a) : text.slice(from);
  if (a < 0) {
    // "…\nAc": the next label is still arriving
    const nl = thought.lastIndexOf('\n');
    const tail = thought.slice(nl + 1).trim().toLowerCase();
    if (nl >= 0 && tail && action.toLowerCase().startsWith(tail)) thought = thought.slice(0, nl);
  }
  const act = a >= 0 ? text.slice(a + action.length).trimStart().split('\n')[0].trim() : '';
  return { thought: thought.trim() || null, action: act || null };
}
