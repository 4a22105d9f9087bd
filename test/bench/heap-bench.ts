/**
 * Memory of the labeler over a run ("heap" in bench-results.json): does the extension hold page
 * elements it no longer needs? Through the built extension, on a real documentation page (or the
 * corpus's heavy page when the Debian docs are missing), BENCH_HEAP_STEPS steps (default 50),
 * each as a run's step on a page that changes: `marks/label` is sent from the side panel, then the
 * page replaces five of the links just labelled (dropping the old ones) and scrolls. After
 * step 10, after the last step and after `marks/clear` (the run's end), a full garbage collection
 * and a heap snapshot of the page's renderer (main world and the content scripts' isolated world
 * share it): the number of detached DOM nodes still reachable. Between steps the last pass's
 * labels may hold the elements the page just dropped (actions resolve them), so the count may be
 * a few; it must not grow with the steps, and after the run's end it must be what the page holds
 * itself: the same steps on the page never labelled ("pageAlone"; the Node.js page's own scripts
 * keep an element or two of its header). Numbers are reported, never asserted.
 */
import type { CDPSession, Page } from 'playwright-core';
import { serveDir } from '../../scripts/static-server';
import { DOC, ensureDocs } from './debian-docs';
import { extensionSession } from './marks-browser';
import { serveCorpus } from './marks-corpus';

const STEPS = Number(process.env.BENCH_HEAP_STEPS ?? 50);
const PAGE = { pkg: 'nodejs-doc', file: 'nodejs/api/n-api.html' };

type Api = { webagent: { send(t: string, p: unknown): Promise<unknown> } };

export interface HeapRow {
  page: string;
  steps: number;
  /** detached DOM nodes: with the labeler after step 10, the last step and the run's end; the page's own (the same steps, never labelled) */
  detached: { afterStep10: number; afterLast: number; afterClear: number; pageAlone: number };
  marksLast: number;
}

interface Snapshot { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] }

/** Detached DOM nodes in a heap snapshot taken after a full garbage collection. */
async function detachedNodes(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const chunks: string[] = [];
  const onChunk = (e: { chunk: string }) => chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false, captureNumericValue: false } as never);
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  const snap = JSON.parse(chunks.join('')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const width = fields.length;
  const at = fields.indexOf('detachedness');
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const types = snap.snapshot.meta.node_types[0];
  if (at < 0) throw new Error('heap snapshot has no detachedness field');
  let n = 0;
  // detachedness 2: a DOM node (a native Blink node, named like `<p>`) out of the document
  for (let i = 0; i < snap.nodes.length; i += width) {
    if (snap.nodes[i + at] === 2 && types[snap.nodes[i + typeAt]] === 'native') {
      n++;
      if (process.env.BENCH_HEAP_NAMES) console.log('detached:', snap.strings[snap.nodes[i + nameAt]].slice(0, 120));
    }
  }
  return n;
}

/**
 * The page changes after a step: it scrolls, and replaces the first five links on screen (which the
 * last pass labelled) by new ones, dropping the old ones.
 */
function changePage(page: Page, step: number): Promise<void> {
  return page.evaluate((k) => {
    const onScreen = Array.from(document.querySelectorAll('a[href]')).filter((a) => {
      const r = a.getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight && r.width > 0;
    });
    for (const a of onScreen.slice(0, 5)) {
      const b = document.createElement('a');
      b.href = '#replaced';
      b.textContent = `replaced ${k}`;
      a.replaceWith(b);
    }
    const max = document.scrollingElement!.scrollHeight - innerHeight;
    window.scrollTo(0, Math.round((max * (k % 5)) / 4));
  }, step);
}

export async function heapBench(log: (s: string) => void = console.log): Promise<HeapRow> {
  const docs = ensureDocs([PAGE], 'heap', () => undefined) ? await serveDir(DOC) : null;
  const corpus = docs ? null : await serveCorpus();
  const url = docs ? `${docs.url}${PAGE.file}` : corpus!.url('heavy-catalog.html');
  const s = await extensionSession();
  try {
    const page = await s.open(url, 1);
    const tabId = await s.tabId(page);
    const cdp = await s.launched.context.newCDPSession(page);
    const send = (type: string) => s.panel.evaluate(([t, id]) => (window as unknown as Api).webagent.send(t, { tabId: id }), [type, tabId] as const);
    let afterStep10 = 0;
    let marksLast = 0;
    for (let i = 1; i <= STEPS; i++) {
      marksLast = ((await send('marks/label')) as { marks: unknown[] }).marks.length;
      await changePage(page, i);
      if (i === 10) afterStep10 = await detachedNodes(cdp);
    }
    const afterLast = await detachedNodes(cdp);
    await send('marks/clear');
    const afterClear = await detachedNodes(cdp);
    await s.done(page);
    // the control: what the page itself keeps of the elements it drops, with no labeling at all
    const alone = await s.open(url, 1);
    for (let i = 1; i <= STEPS; i++) await changePage(alone, i);
    const pageAlone = await detachedNodes(await s.launched.context.newCDPSession(alone));
    await s.done(alone);
    const row: HeapRow = { page: docs ? PAGE.file : 'heavy-catalog.html', steps: STEPS, detached: { afterStep10, afterLast, afterClear, pageAlone }, marksLast };
    log(`\nheap: ${row.page}, ${STEPS} steps (marks/label, then 5 labelled links replaced and a scroll): detached DOM nodes after step 10 ${afterStep10}, after step ${STEPS} ${afterLast}, after marks/clear ${afterClear}; the page alone (same steps, no labeling) ${pageAlone}`);
    return row;
  } finally {
    await s.close();
    await docs?.close();
    await corpus?.close();
  }
}
