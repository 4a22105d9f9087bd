/**
 * npm run demo-model [-- --port N] [--dialect ID]: the scripted demo model alone (scripts/demo-model.ts) and the
 * demo bookshop beside it, for the extension in a person's own Chrome; prints the base URL to
 * paste into Settings. Runs until Ctrl+C.
 */
import { serveDir } from './static-server';
import { DEMO_MODEL, DEMO_SITE, DEMO_TASK, demoModelArgs, PLAYED_DIALECTS, startDemoModel } from './demo-model';

async function main() {
  const { port, dialect } = demoModelArgs(process.argv.slice(2));
  const model = await startDemoModel(port);
  const site = await serveDir(DEMO_SITE, port + 1);
  console.log([
    'The scripted demo model is running. It is NOT a real model: it plays the demo bookshop\'s tasks from a fixed plan',
    `(in ${PLAYED_DIALECTS.join(', ')}: glm-web by the element list, the others by reading the screenshot on this machine).`,
    '',
    `  Base URL:  ${model.baseUrl}`,
    `  Model:     ${DEMO_MODEL}`,
    '  API key:   (leave empty)',
    `  Dialect:   ${dialect}`,
    '',
    `Demo bookshop: ${site.url}`,
    `Try: open the shop, then in the side panel: ${DEMO_TASK}`,
    '(any book of the shop, paperback, hardcover or e-book; other tasks get a reply saying it is not a model)',
    '',
    'Ctrl+C to stop.',
  ].join('\n'));
  const stop = () => { void Promise.all([model.close(), site.close()]).then(() => process.exit(0)); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e) => {
  console.error(`The demo model could not start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
