/**
 * Corpus audit (a tool for whoever edits test/fixtures/pages/marks/):
 *   npx tsx test/bench/marks-audit.ts [name-filter,…]
 * For each page: corpus problems (gold not visible, gold/decoy with the same rect), gold only
 * partly inside the viewport, and for ours and the baseline: missed gold, labelled decoys, wrong
 * texts, and marks that match no gold/decoy at all (elements the page forgot to classify).
 * OURS=harness|extension picks our path (default: extension when built with marks/label).
 */
import type { Page } from 'playwright-core';
import { clearBaseline, labelBaseline } from './marks-baseline';
import { plainSession } from './marks-browser';
import { listPages, serveCorpus } from './marks-corpus';
import { startOurs } from './marks-ours';
import { corpusProblems, iou, IOU_MIN, scorePage, type LabelResult, type TruthItem } from './marks-score';
import { collectTruth } from './marks-truth';

const fmt = (r: { x: number; y: number; width: number; height: number }) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;

function report(name: string, truth: TruthItem[], res: LabelResult, scoped: (t: TruthItem) => boolean) {
  const s = scorePage(truth.filter(scoped), res);
  console.log(`  ${name}: gold ${s.found}/${s.gold}, decoys labelled ${s.decoysLabelled.length}/${s.decoys}, text ${s.textOk}/${s.textChecked}, overlaps ${s.overlaps}, gaps ${s.gaps}, marks ${s.marks}, ${res.ms.toFixed(1)} ms`);
  for (const m of s.missed) console.log(`    missed: ${m}`);
  for (const d of s.decoysLabelled) console.log(`    DECOY labelled: ${d}`);
  for (const d of s.duplicates) console.log(`    labelled twice: ${d}`);
  for (const t of s.textWrong) console.log(`    text: ${t.desc}: want "${t.want}" got "${t.got}"`);
  for (const m of res.marks) {
    const hit = truth.some((t) => { const r = t.rect ?? t.box; return r && iou(r, m.rect) >= IOU_MIN; });
    if (!hit) console.log(`    unclassified mark [${m.label}] <${m.tag}> "${m.text.slice(0, 50)}" ${fmt(m.rect)}`);
  }
}

async function labelOnce(open: () => Promise<Page>, label: (p: Page) => Promise<LabelResult>, done: (p: Page) => Promise<void>) {
  const page = await open();
  try {
    return { truth: await collectTruth(page), res: await label(page) };
  } finally {
    await done(page);
  }
}

async function main() {
  const corpus = await serveCorpus();
  const ours = await startOurs();
  const plain = await plainSession();
  console.log(`ours: ${ours.mode}`);
  try {
    for (const p of listPages(process.argv[2])) {
      const url = corpus.url(p.name);
      const a = await labelOnce(() => ours.open(url, p.dpr), (pg) => ours.label(pg, true), (pg) => ours.session.done(pg));
      const gold = a.truth.filter((t) => t.kind === 'gold').length;
      const decoys = a.truth.length - gold;
      console.log(`${p.name} (dpr ${p.dpr}): ${gold} gold, ${decoys} decoys`);
      for (const c of corpusProblems(a.truth)) console.log(`  CORPUS: ${c}`);
      for (const g of a.truth.filter((t) => t.kind === 'gold' && t.rect && t.box)) {
        if (Math.abs(g.rect!.width * g.rect!.height - g.box!.width * g.box!.height) > 1) console.log(`  partly clipped gold: ${g.desc} box ${fmt(g.box!)} visible ${fmt(g.rect!)}`);
      }
      const scope = ours.mode === 'harness' ? (t: TruthItem) => !t.inFrame && !t.inClosedShadow : () => true;
      report(`ours (${ours.mode})`, a.truth, a.res, scope);
      const b = await labelOnce(() => plain.open(url, p.dpr), async (pg) => { const r = await labelBaseline(pg); await clearBaseline(pg); return r; }, (pg) => plain.done(pg));
      report('baseline', b.truth, b.res, () => true);
    }
  } finally {
    await ours.close();
    await plain.close();
    await corpus.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
