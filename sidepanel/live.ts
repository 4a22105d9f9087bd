/**
 * A model reply while it streams in, as the panel shows it: the thought so far, as the run's
 * dialect reads a partial reply (Dialect.preview: e.g. after "Thought:" up to "Action:"), and the
 * reasoning (the server's separate reasoning field and any <think>…</think> block in the text).
 */
import type { Preview } from '../src/core/dialects/types';
import { sectionPreview } from '../src/core/dialects/shared/preview';

export interface LiveReply { thought: string; reasoning: string }

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

const webPreview = (c: string): Preview => sectionPreview(c, 'Thought:', 'Action:');

export function liveReply(content: string, reasoning: string, preview: (partial: string) => Preview = webPreview): LiveReply {
  let think = '';
  const open = content.indexOf(THINK_OPEN);
  if (open >= 0) {
    const close = content.indexOf(THINK_CLOSE, open);
    think = close < 0 ? content.slice(open + THINK_OPEN.length).replace(/<[^>\s]*$/, '') : content.slice(open + THINK_OPEN.length, close);
  }
  return { thought: preview(content).thought ?? '', reasoning: [reasoning.trim(), think.trim()].filter(Boolean).join('\n\n') };
}
