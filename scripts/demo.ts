/**
 * npm run demo: serve the bundled demo site and run the demo task end to end
 * in Chromium with the built extension. Uses VLM_BASE_URL (+ VLM_API_KEY,
 * VLM_MODEL) when set, else the bundled scripted demo model (no key, no network).
 */
import path from 'node:path';
import { serveDir } from './static-server';
import { runAgent } from './run-agent';
import { DEMO_TASK, startDemoModel } from './demo-model';

async function main() {
  const site = await serveDir(path.join(import.meta.dirname, 'demo-site'));
  const real = process.env.VLM_BASE_URL;
  const demoModel = real ? null : await startDemoModel();
  const headed = !!process.env.DISPLAY && process.env.CI !== 'true';
  console.log(real
    ? `Model: ${process.env.VLM_MODEL ?? 'glm-4.5v'} at ${real}`
    : 'Model: the bundled SCRIPTED DEMO MODEL (not a real model: it follows a fixed plan by reading the element list). Set VLM_BASE_URL, VLM_API_KEY and VLM_MODEL to use a real one.');
  console.log(`Site: ${site.url} (bundled demo bookshop), ${headed ? 'headed' : 'headless'}`);
  console.log(`Task: ${DEMO_TASK}\n`);
  try {
    const r = await runAgent({
      task: DEMO_TASK,
      url: site.url,
      config: real
        ? { baseUrl: real, apiKey: process.env.VLM_API_KEY ?? '', model: process.env.VLM_MODEL ?? 'glm-4.5v', maxSteps: 15 }
        : { baseUrl: demoModel!.baseUrl, apiKey: '', model: 'demo-scripted', maxSteps: 15 },
      traceFile: path.join('traces', 'demo.json'),
      width: 1280, height: 800, headed,
    });
    process.exitCode = r.status === 'finished' ? 0 : 1;
  } finally {
    await demoModel?.close();
    await site.close();
  }
}

main().catch((e) => {
  console.error(`Demo failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
