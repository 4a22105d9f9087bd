/**
 * The baseline labeler (baseline/webvoyager.ts) on the Node side: bundle it once as an IIFE,
 * add it to a page with addScriptTag, run one pass, clear.
 */
import { build } from 'esbuild';
import path from 'node:path';
import type { ElementHandle, Page } from 'playwright-core';
import type { BaselineResult } from './baseline/webvoyager';
import type { LabelResult } from './marks-score';

type Api = typeof import('./baseline/webvoyager');
declare global {
  interface Window { __webvoyager?: Api }
}

const ENTRY = path.join(import.meta.dirname, 'baseline', 'webvoyager.ts');
let bundle: Promise<string> | null = null;

export function baselineBundle(): Promise<string> {
  bundle ??= build({
    entryPoints: [ENTRY], bundle: true, format: 'iife', globalName: '__webvoyager',
    write: false, target: 'chrome120', logLevel: 'silent',
  }).then((r) => r.outputFiles[0].text);
  return bundle;
}

export async function injectBaseline(page: Page): Promise<void> {
  if (await page.evaluate(() => !!window.__webvoyager)) return;
  await page.addScriptTag({ content: await baselineBundle() });
}

/** One pass of the baseline in the page's top document (it does not look into frames). */
export async function labelBaseline(page: Page): Promise<LabelResult> {
  await injectBaseline(page);
  const r: BaselineResult = await page.evaluate(() => window.__webvoyager!.label());
  return { marks: r.marks, labelBoxes: r.labelBoxes, drawn: r.drawn, ms: r.ms };
}

export async function clearBaseline(page: Page): Promise<void> {
  await page.evaluate(() => window.__webvoyager?.clear());
}

/** The elements behind the last pass's labels, as handles (label i = index i). */
export async function baselineElements(page: Page): Promise<Array<ElementHandle<Element>>> {
  const arr = await page.evaluateHandle(() => window.__webvoyager?.elements() ?? []);
  const props = await arr.getProperties();
  const out: Array<ElementHandle<Element>> = [];
  for (let i = 0; i < props.size; i++) {
    const el = props.get(String(i))?.asElement();
    if (el) out.push(el as ElementHandle<Element>);
  }
  return out;
}
