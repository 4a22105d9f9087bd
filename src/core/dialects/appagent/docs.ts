/**
 * `<ui_document>`: the learned documentation of the elements on screen, written as AppAgent's task
 * executor writes it (scripts/task_executor.py): per documented element, in tag order, a header
 * naming its tag (label + 1: tags count from 1) and one sentence per kind of use it has a doc for,
 * each followed by a blank line. Elements without documentation are left out; no documentation at
 * all gives "" (AppAgent's no-doc run removes the placeholder and keeps the sentence before it).
 *
 * Departure: AppAgent keeps a vertical and a horizontal swipe doc; ours has one swipe doc
 * (docs/types.ts DocAction), written with the executor's shared opening sentence only.
 */
import type { DocAction, ScreenDoc } from '../../docs/types';
import { oneLine } from '../shared/text';

/** The executor's sentence before each kind's doc (its wording, one line). */
const LEAD: Record<DocAction, string> = {
  tap: 'This UI element is clickable. ',
  text: 'This UI element can receive text input. The text input is used for the following purposes: ',
  long_press: 'This UI element is long clickable. ',
  swipe: 'This element can be swiped directly without tapping. ',
};

/** The executor's order of the sentences. */
const ORDER: readonly DocAction[] = ['tap', 'text', 'long_press', 'swipe'];

/**
 * The documentation text for `<ui_document>`. A doc is put on one line: it is model-written text
 * from an earlier run, and a line break in it could start a forged "Documentation of UI element…"
 * entry for another tag.
 */
export function formatUiDocument(docs: ScreenDoc[] | undefined): string {
  const usable = (docs ?? [])
    .filter((d) => d && Number.isSafeInteger(d.label) && d.label >= 0 && d.docs && typeof d.docs === 'object')
    .slice()
    .sort((a, b) => a.label - b.label);
  let out = '';
  const seen = new Set<number>();
  for (const d of usable) {
    if (seen.has(d.label)) continue;
    const sentences = ORDER.flatMap((k) => {
      const text = oneLine(d.docs[k] ?? '');
      return text ? [`${LEAD[k]}${text}\n\n`] : [];
    });
    if (!sentences.length) continue;
    seen.add(d.label);
    out += `Documentation of UI element labeled with the numeric tag '${d.label + 1}':\n${sentences.join('')}`;
  }
  return out;
}
