import { intersect } from '../../src/core/frames';
/**
 * Scoring one labeling pass against a page's gold and decoy elements (pure functions).
 *
 * Identity is by rectangle, not by DOM node (frames and closed shadow roots cannot be reached
 * otherwise): a mark counts for a truth element when IoU(mark.rect, element rect) >= 0.8.
 * 1. Gold: pairs (gold, mark) with IoU >= 0.8 are assigned greedily, best IoU first, one mark
 *    per gold and one gold per mark. A gold with a mark is "found".
 * 2. Text: a found gold with data-gold-text is right when both texts match after whitespace collapse.
 * 3. Decoy: "labelled" when any mark reaches IoU >= 0.8 with its visible rect (or, when nothing of
 *    it is visible, its unclipped box, so a labeler that forgets to clip is still caught).
 * 4. Overlaps: pairs of drawn label tags whose rectangles intersect (by more than 0.5 px each way).
 * 5. Gaps: numbers in 0..max(drawn-1, last label) that have no entry in the element list.
 */
import type { Rect } from '../../src/core/marks';

export const IOU_MIN = 0.8;

export interface MarkLike { label: number; tag: string; text: string; rect: Rect }

export interface LabelResult {
  marks: MarkLike[];
  /** every label tag drawn, top-page CSS px */
  labelBoxes: Rect[];
  /** how many numbers were drawn on the page (>= marks.length when entries were dropped) */
  drawn: number;
  /** time of the labeling pass in the page, ms */
  ms: number;
}

export interface TruthItem {
  kind: 'gold' | 'decoy';
  desc: string;
  /** data-gold-text, when given */
  text: string | null;
  /** visible part in top-page CSS px (viewport ∩ frames), null when nothing is visible */
  rect: Rect | null;
  /** unclipped border box in top-page CSS px, null when not rendered */
  box: Rect | null;
  inFrame: boolean;
  inClosedShadow: boolean;
}

export interface PageScore {
  gold: number;
  found: number;
  missed: string[];
  decoys: number;
  decoysLabelled: string[];
  textChecked: number;
  textOk: number;
  textWrong: Array<{ desc: string; want: string; got: string }>;
  overlaps: number;
  gaps: number;
  marks: number;
  /** a second mark on a gold element (a control labelled twice, e.g. a component's host and its inner button) */
  duplicates: string[];
}

export const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

export function area(r: Rect): number {
  return Math.max(0, r.width) * Math.max(0, r.height);
}

export { intersect };

export function iou(a: Rect, b: Rect): number {
  const i = intersect(a, b);
  if (!i) return 0;
  const inter = area(i);
  const union = area(a) + area(b) - inter;
  return union > 0 ? inter / union : 0;
}

export function countOverlaps(boxes: Rect[]): number {
  let n = 0;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (w > 0.5 && h > 0.5) n++;
    }
  }
  return n;
}

export function countGaps(labels: number[], drawn: number): number {
  const have = new Set(labels);
  const top = Math.max(drawn, labels.length ? Math.max(...labels) + 1 : 0);
  let gaps = 0;
  for (let k = 0; k < top; k++) if (!have.has(k)) gaps++;
  return gaps;
}

/** Greedy one-to-one assignment of gold items to marks (best IoU first). */
export function matchGold(gold: TruthItem[], marks: MarkLike[]): Map<number, number> {
  const pairs: Array<{ g: number; m: number; v: number }> = [];
  gold.forEach((t, g) => {
    if (!t.rect) return;
    marks.forEach((mk, m) => {
      const v = iou(t.rect!, mk.rect);
      if (v >= IOU_MIN) pairs.push({ g, m, v });
    });
  });
  pairs.sort((a, b) => b.v - a.v);
  const byGold = new Map<number, number>();
  const usedMarks = new Set<number>();
  for (const p of pairs) {
    if (byGold.has(p.g) || usedMarks.has(p.m)) continue;
    byGold.set(p.g, p.m);
    usedMarks.add(p.m);
  }
  return byGold;
}

export function scorePage(truth: TruthItem[], res: LabelResult): PageScore {
  const gold = truth.filter((t) => t.kind === 'gold');
  const decoys = truth.filter((t) => t.kind === 'decoy');
  const byGold = matchGold(gold, res.marks);
  const textWrong: PageScore['textWrong'] = [];
  let textChecked = 0, textOk = 0;
  gold.forEach((g, i) => {
    if (g.text === null) return;
    textChecked++;
    const m = byGold.get(i);
    const got = m === undefined ? '(not labelled)' : collapse(res.marks[m].text);
    if (m !== undefined && got === collapse(g.text)) textOk++;
    else textWrong.push({ desc: g.desc, want: collapse(g.text), got });
  });
  const decoysLabelled = decoys
    .filter((d) => {
      const r = d.rect ?? d.box;
      return !!r && res.marks.some((m) => iou(r, m.rect) >= IOU_MIN);
    })
    .map((d) => d.desc);
  const assigned = new Set(byGold.values());
  const duplicates = res.marks.flatMap((mk, m) => {
    if (assigned.has(m)) return [];
    const twin = Array.from(byGold.keys()).find((g) => iou(gold[g].rect!, mk.rect) >= IOU_MIN);
    return twin === undefined ? [] : [`${gold[twin].desc}: [${mk.label}] <${mk.tag}> "${collapse(mk.text).slice(0, 40)}"`];
  });
  return {
    duplicates,
    gold: gold.length,
    found: byGold.size,
    missed: gold.filter((_, i) => !byGold.has(i)).map((g) => g.desc),
    decoys: decoys.length,
    decoysLabelled,
    textChecked,
    textOk,
    textWrong,
    overlaps: countOverlaps(res.labelBoxes),
    gaps: countGaps(res.marks.map((m) => m.label), res.drawn),
    marks: res.marks.length,
  };
}

/** Corpus sanity: gold elements that are not visible, and gold/decoy pairs a rect cannot tell apart. */
export function corpusProblems(truth: TruthItem[]): string[] {
  const out: string[] = [];
  const gold = truth.filter((t) => t.kind === 'gold');
  for (const g of gold) if (!g.rect || area(g.rect) < 20) out.push(`gold not visible: ${g.desc}`);
  for (const d of truth.filter((t) => t.kind === 'decoy')) {
    const r = d.rect ?? d.box;
    if (!r) continue;
    for (const g of gold) if (g.rect && iou(g.rect, r) >= IOU_MIN) out.push(`gold ${g.desc} and decoy ${d.desc} have the same rect`);
  }
  return out;
}

/** Sum of page scores (lists concatenated with the page name in front). */
export function addScores(pages: Array<{ page: string; score: PageScore }>): PageScore {
  const total: PageScore = { gold: 0, found: 0, missed: [], decoys: 0, decoysLabelled: [], textChecked: 0, textOk: 0, textWrong: [], overlaps: 0, gaps: 0, marks: 0, duplicates: [] };
  for (const { page, score: s } of pages) {
    total.gold += s.gold; total.found += s.found; total.decoys += s.decoys; total.textChecked += s.textChecked;
    total.textOk += s.textOk; total.overlaps += s.overlaps; total.gaps += s.gaps; total.marks += s.marks;
    total.missed.push(...s.missed.map((d) => `${page}: ${d}`));
    total.decoysLabelled.push(...s.decoysLabelled.map((d) => `${page}: ${d}`));
    total.duplicates.push(...s.duplicates.map((d) => `${page}: ${d}`));
    total.textWrong.push(...s.textWrong.map((t) => ({ ...t, desc: `${page}: ${t.desc}` })));
  }
  return total;
}
