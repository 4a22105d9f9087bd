import { createWorker, PSM } from 'tesseract.js';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serveDir } from './scripts/static-server';
const worker = await createWorker('eng', 1, { langPath: path.resolve('node_modules/@tesseract.js-data/eng/4.0.0_best_int'), cachePath: '/tmp/tess-cache', gzip: true, logger: () => {} });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
const srv = await serveDir(path.resolve('scripts/demo-site'));
for (const psm of [PSM.SPARSE_TEXT, PSM.AUTO]) {
  await worker.setParameters({ tessedit_pageseg_mode: psm });
  for (const u of ['index.html', 'book.html?id=clean-code']) {
    await page.goto(new URL(u, srv.url).href);
    if (u === 'index.html') await page.fill('input', 'Clean Code');
    const png = await page.screenshot({ type: 'jpeg', quality: 90 });
    const t1 = Date.now();
    const r = await worker.recognize(png, {}, { blocks: true });
    const words = r.data.blocks!.flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)));
    console.log(psm, u, Date.now() - t1, 'ms:', words.map((w) => `${w.text}@${w.bbox.x0},${w.bbox.y0}`).join(' '));
  }
}
await worker.terminate(); await browser.close(); await srv.close(); process.exit(0);
