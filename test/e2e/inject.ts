/**
 * Test helper: bundle the labeler (content-scripts/labeler/index.ts) once with esbuild as an
 * IIFE exposing `window.__labeler`, and add it to a page.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const ENTRY = fileURLToPath(new URL('../../content-scripts/labeler/index.ts', import.meta.url));

let bundle: Promise<string> | null = null;

export function labelerBundle(): Promise<string> {
  bundle ??= build({
    entryPoints: [ENTRY],
    bundle: true,
    format: 'iife',
    globalName: '__labeler',
    write: false,
    target: 'chrome120',
    logLevel: 'silent',
  }).then((r) => r.outputFiles[0].text);
  return bundle;
}

/** Add the labeler to the page (safe to call twice: the module keeps its state on a global symbol). */
export async function injectLabeler(page: Page): Promise<void> {
  await page.addScriptTag({ content: await labelerBundle() });
}
