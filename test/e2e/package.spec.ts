/**
 * The release package (docs/release.md): the zip `npm run package` makes, unzipped into a folder as
 * a person would, loads in a clean Chromium profile with no other extension and runs the demo task
 * (scripts/demo.ts) against the scripted demo model, ending as the demo does. The zip is made as
 * `npm run package` makes it (buildRelease, a release-mode vite build of about 2 s, then
 * packageFolder), into a folder of the test's own. The build the other specs load (dist/) keeps
 * what only tests use, and the release check refuses it.
 */
import { test, expect } from './fixtures';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { DIST, launchWithExtension, type Launched } from '../../scripts/browser';
import { buildRelease, packageFolder, readBuild, releaseVersion } from '../../scripts/package';
import { runAgent } from '../../scripts/run-agent';
import { DEMO_MODEL, DEMO_SITE, DEMO_TASK, startDemoModel } from '../../scripts/demo-model';
import type { ChatServer } from '../../scripts/chat-server';
import { serveDir, type StaticServer } from '../../scripts/static-server';

test('the release zip, unzipped, loads in a clean profile and runs the demo task to its answer', async () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'webagent-release-'));
  let browser: Launched | null = null;
  let model: ChatServer | null = null;
  let shop: StaticServer | null = null;
  try {
    const { version, changelog } = releaseVersion();
    // the tests' build holds what only tests use: refused for release
    expect(packageFolder(DIST, { version, changelog, outDir: tmp }).problems.join('\n')).toMatch(/holds code only the tests use/);
    const built = path.join(tmp, 'build');
    await buildRelease(built);
    const packaged = packageFolder(built, { version, changelog, outDir: tmp });
    expect(packaged.problems).toEqual([]);

    // unzipped as a person would, into a folder of its own: exactly the build's files
    const folder = path.join(tmp, 'webagent');
    const unzipped = unzipSync(readFileSync(packaged.zipFile!));
    for (const [name, bytes] of Object.entries(unzipped)) {
      mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
      writeFileSync(path.join(folder, name), bytes);
    }
    expect(Object.keys(unzipped).sort()).toEqual([...readBuild(built).keys()]);

    model = await startDemoModel();
    shop = await serveDir(DEMO_SITE);
    browser = await launchWithExtension({ extensionDir: folder, width: 1280, height: 800, headed: false });
    // the one extension of the profile, at package.json's version
    const workers = browser.context.serviceWorkers().map((w) => new URL(w.url()).host);
    expect(new Set(workers)).toEqual(new Set([browser.extensionId]));
    expect(await browser.context.serviceWorkers()[0].evaluate(() => chrome.runtime.getManifest().version)).toBe(version);

    const lines: string[] = [];
    const run = await runAgent(browser, {
      task: DEMO_TASK, url: shop.url, config: { baseUrl: model.baseUrl, apiKey: '', model: DEMO_MODEL, maxSteps: 15 },
      traceFile: path.join(tmp, 'demo.json'), width: 1280, height: 800, headed: false,
    }, { out: (l) => lines.push(l), err: (l) => lines.push(l), handleSigint: false });
    expect([run.status, run.stopReason, run.answer], lines.join('\n')).toEqual(['finished', null, '$54.50']);
    // as `npm run demo` ends (its answer line), having gone through the shop: the search, the book, the Format list, the hardcover
    expect(lines).toContain('ANSWER: $54.50');
    expect(run.run.steps.length).toBeGreaterThanOrEqual(4);
  } finally {
    await browser?.close();
    await model?.close();
    await shop?.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});
