/**
 * The model side, robustly, through the real extension and the fake OpenAI-compatible server:
 * retries (429 with Retry-After, 500, a timeout) that end in success, each error class with its
 * message, unreadable replies (recovered, then stopped after 3 with the last reply shown), usage
 * and cost totals that match the server's usage, the loop guard nudging then stopping, caps; and
 * what the model is shown: a page that looks for our labels during a run finds nothing, while the
 * model's picture (JPEG) carries them, drawn on the capture in the worker.
 */
import { test, expect, type Page } from './fixtures';
import { startFakeModel, type FakeModel, type FakeModelOptions, type ModelFault, type ModelReply } from '../fixtures/model/server';
import { scriptedPolicy } from '../../scripts/scripted-model';
import { shareExtension, panelSend } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Trace } from '../../src/core/trace';
import type { Settings } from '../../src/core/settings';
import { layoutLabels } from '../../src/core/label-layout';

const KEY = 'sk-robust-9f8e7d6c5b';
const GOALS = scriptedPolicy([{ do: 'click', find: /^Step one$/ }, { do: 'answer', text: 'done' }], 'plain');
let site: StaticServer;
let panel: Page;
const models: FakeModel[] = [];

shareExtension((e) => { ({ site, panel } = e); }, models);

function send<T>(type: string, payload: unknown): Promise<T> {
  return panelSend<T>(panel, type, payload);
}

async function fake(policy: FakeModelOptions['policy'], extra: Partial<FakeModelOptions> = {}): Promise<FakeModel> {
  const m = await startFakeModel({ apiKey: KEY, policy, ...extra });
  models.push(m);
  return m;
}

/** Runs the task to its end with these settings; the final view and the trace. */
async function runTask(m: FakeModel, config: Partial<Settings> = {}, baseUrl = m.baseUrl, page = 'restart/index.html', screenshots = false): Promise<{ run: RunView; trace: Trace }> {
  const { runId } = await send<{ runId: string }>('run/start', {
    task: 'Press Step one', url: `${site.url}${page}`,
    config: { baseUrl, apiKey: KEY, model: 'glm-4.5v', ...config },
  });
  let run: RunView | null = null;
  await expect.poll(async () => {
    run = await send<RunView | null>('run/get', { runId });
    return run?.status;
  }, { timeout: 90_000, message: 'the run ends' }).not.toBe('running');
  // Let the tab's run finish tearing down before the next test starts one.
  return { run: run!, trace: await send<Trace>('run/trace', { runId, excludeScreenshots: !screenshots }) };
}

test('429 with Retry-After, then 500, then success: the run goes on', async () => {
  let n = 0;
  const m = await fake((req) => {
    n++;
    if (n === 1) return { status: 429, message: 'Rate limit reached', headers: { 'retry-after': '1' } } satisfies ModelFault;
    if (n === 2) return { status: 500, message: 'upstream crashed' } satisfies ModelFault;
    return GOALS(req.prompt);
  });
  const { run, trace } = await runTask(m);
  expect(run.status).toBe('finished');
  expect(m.requests.length).toBe(4);
  expect(trace.steps).toHaveLength(2);
});

test('a request that times out is retried', async () => {
  let n = 0;
  const m = await fake(async (req) => {
    if (++n === 1) await new Promise((r) => setTimeout(r, 8000));
    return GOALS(req.prompt);
  });
  const { run } = await runTask(m, { requestTimeoutSec: 5, maxRetries: 2 });
  expect(run.status).toBe('finished');
  expect(m.requests.length).toBe(3);
});

test('a reply stream cut off in the middle (cleanly or abruptly) is asked again, not read as half a reply', async () => {
  for (const how of ['end', 'destroy'] as const) {
    let n = 0;
    const m = await fake((req) => {
      const reply = GOALS(req.prompt);
      return ++n === 1 ? { ...reply, cut: { afterChunks: 2, how } } : reply;
    }, { chunkSize: 8 });
    const { run, trace } = await runTask(m);
    expect(run.status).toBe('finished');
    expect(m.requests.length).toBe(3);
    expect(trace.steps[0].observation).toBe('Success');
  }
});

test('retries give up with the reason and what to do', async () => {
  const m = await fake(() => ({ status: 503, message: 'overloaded' }));
  const { run } = await runTask(m, { maxRetries: 1 });
  expect(run.status).toBe('failed');
  expect(run.stopReason).toMatch(/failed \(HTTP 503\).*overloaded.*gave up after 2 attempts/);
  expect(m.requests.length).toBe(2);
});

const errorCases: Array<{ name: string; make: () => Promise<{ m: FakeModel; baseUrl?: string; config?: Partial<Settings> }>; message: RegExp }> = [
  { name: 'a wrong key (401)', make: async () => ({ m: await fake(GOALS as never), config: { apiKey: 'sk-wrong-000000' } }), message: /refused the API key \(HTTP 401\)/ },
  { name: 'Ollama refusing the extension origin (403)', make: async () => ({ m: await fake(() => ({ status: 403, message: '' })) }), message: /OLLAMA_ORIGINS=chrome-extension:\/\/\*/ },
  { name: 'an unknown model (404) lists the models offered', make: async () => ({ m: await fake(GOALS as never, { models: ['glm-4.5v-fp8', 'qwen2.5vl'] }) }), message: /"glm-4\.5v" was not found.*offers: glm-4\.5v-fp8, qwen2\.5vl/ },
  { name: 'a model without image input', make: async () => ({ m: await fake(GOALS as never, { rejectImages: true }) }), message: /does not accept images/ },
  { name: 'a context that is too long', make: async () => ({ m: await fake(() => ({ status: 400, message: "This model's maximum context length is 8192 tokens." })) }), message: /too long for the model's context/ },
  { name: 'a base URL without /v1', make: async () => { const m = await fake(GOALS as never); return { m, baseUrl: m.baseUrl.replace(/\/v1$/, '') }; }, message: /end in \/v1/ },
];

for (const c of errorCases) {
  test(`a clear message for ${c.name}`, async () => {
    const { m, baseUrl, config } = await c.make();
    const { run } = await runTask(m, config ?? {}, baseUrl ?? m.baseUrl);
    expect(run.status).toBe('failed');
    expect(run.stopReason).toMatch(c.message);
  });
}

test('unreadable replies: one is recovered from; three in a row stop the run with the last reply shown', async () => {
  let n = 0;
  const once = await fake((req) => (++n === 1 ? { content: 'I think I should click something.' } : GOALS(req.prompt)));
  const ok = await runTask(once);
  expect(ok.run.status).toBe('finished');
  expect(ok.trace.steps[0].observation).toContain('Format error');
  expect(ok.trace.steps[0].observation).toContain('"Action: Click [3]"');

  const never = await fake((): ModelReply => ({ content: 'Sure! Here is my plan: look around.' }));
  const bad = await runTask(never);
  expect(bad.run.status).toBe('failed');
  expect(bad.run.stopReason).toContain('could not be read 3 times in a row');
  expect(bad.run.stopReason).toContain('Sure! Here is my plan: look around.');
  expect(never.requests.length).toBe(3);
});

test('replies cut at max_tokens are called that, to the model and to the person', async () => {
  for (const stream of [true, false]) {
    const m = await fake((): ModelReply => ({ content: 'Thought: Let me describe every element on this page in great detail, starting with', finishReason: 'length' }));
    const { run, trace } = await runTask(m, { stream });
    expect(run.status).toBe('failed');
    expect(trace.steps[0].observation).toContain('cut off at the token limit');
    expect(run.stopReason).toContain('raise Max tokens in settings');
  }
});

test('usage and cost: the totals match the usage the server reported, streamed or not', async () => {
  for (const stream of [true, false]) {
    const m = await fake((req) => GOALS(req.prompt));
    const { run, trace } = await runTask(m, { stream, prices: { 'glm-4.5v': { inputPerMillion: 2, outputPerMillion: 8 } } });
    expect(run.status).toBe('finished');
    expect(trace.steps.map((s) => s.usage)).toEqual(m.usages);
    const prompt = m.usages.reduce((a, u) => a + u.promptTokens, 0);
    const completion = m.usages.reduce((a, u) => a + u.completionTokens, 0);
    expect(run.totals).toEqual({ promptTokens: prompt, completionTokens: completion, cost: (prompt * 2 + completion * 8) / 1e6, currency: 'USD' });
    if (stream) expect(trace.steps.every((s) => typeof s.timings.modelFirstTokenMs === 'number')).toBe(true);
  }
});

test('the loop guard tells the model at the third same action on an unchanged page and stops at the fifth', async () => {
  // "Step three" changes nothing the labeler sees: the page stays the same.
  const m = await fake(() => ({ content: 'Thought: Press it again.\nAction: Click [2]\nMemory_Updated: {}' }));
  const { run, trace } = await runTask(m);
  expect(trace.steps[0].elements.find((e) => e.label === 2)?.text).toBe('Step three');
  expect(run.status).toBe('stopped');
  expect(run.stopReason).toContain('the same action (Click [2]) 5 times on an unchanged page');
  expect(trace.steps.map((s) => s.observation.includes('try a different approach'))).toEqual([false, false, true, true, false]);
  expect(m.requests[3].prompt?.history.at(-1)).toContain('try a different approach');
  expect(site.events.filter((e) => e.type === 'click' && e.value === 'three').length).toBeGreaterThanOrEqual(4);
});

test('a token cap stops the run with the reason', async () => {
  const m = await fake((req) => GOALS(req.prompt));
  const { run } = await runTask(m, { maxRunTokens: 500 });
  expect(run.status).toBe('stopped');
  expect(run.stopReason).toMatch(/used \d+ tokens, over the cap of 500/);
});

test('Test connection sends a small image and says whether it was accepted', async () => {
  const good = await fake(GOALS as never);
  const ok = await send<{ message: string }>('model/test', { config: { baseUrl: good.baseUrl, apiKey: KEY, model: 'glm-4.5v' } });
  expect(ok.message).toMatch(/accepted an image and answered in \d+ ms/);
  expect(good.connectionTests).toHaveLength(1);
  const textOnly = await fake(GOALS as never, { rejectImages: true });
  const err = await send('model/test', { config: { baseUrl: textOnly.baseUrl, apiKey: KEY, model: 'glm-4.5v' } }).then(() => '', (e: Error) => e.message);
  expect(err).toContain('does not accept images');
});

/** For each box, the share of its pixels within 48 of `colour` on every channel in the image (decoded by the browser: JPEG, WebP, PNG). */
function colourShares(image: string, boxes: Array<{ x: number; y: number; w: number; h: number; colour: string }>): Promise<{ width: number; shares: number[] }> {
  return panel.evaluate(async ({ image, boxes }) => {
    const bitmap = await createImageBitmap(await (await fetch(image)).blob());
    const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    const shares = boxes.map((b) => {
      const want = [1, 3, 5].map((i) => parseInt(b.colour.slice(i, i + 2), 16));
      const d = ctx.getImageData(b.x, b.y, b.w, b.h).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (want.every((v, c) => Math.abs(d[i + c] - v) <= 48)) n++;
      return n / (b.w * b.h);
    });
    return { width: bitmap.width, shares };
  }, { image, boxes });
}

test('a page that looks for our labels during a run finds nothing of ours, in the document or the top layer; the model\'s picture carries them', async () => {
  const m = await fake((req) => scriptedPolicy([{ do: 'click', find: /^Open photo$/ }, { do: 'answer', text: 'done' }], 'plain')(req.prompt));
  const seen = site.events.length;
  const { run, trace } = await runTask(m, {}, m.baseUrl, 'watch/labels.html', true);
  expect(run.status).toBe('finished');
  expect(site.events.slice(seen).filter((e) => e.type === 'click').map((e) => e.value)).toEqual(['Open photo']);
  // the page looked all through the first step (labels, screenshot, the click) and found nothing
  expect(site.events.slice(seen).filter((e) => e.type === 'found')).toEqual([]);
  expect(trace.steps[1].title).toMatch(/^found nothing \((\d{2,}) looks\)$/);
  // what the model saw: every label's box and tag drawn on its JPEG where the overlay would have put them
  const first = trace.steps[0];
  const image = m.requests[0].prompt!.imageUrl;
  expect(image.startsWith('data:image/jpeg;base64,')).toBe(true);
  const view = { width: first.request.imageWidth, height: first.request.imageHeight };
  const drawn = layoutLabels(first.elements, view.width, view.height);
  expect(drawn.map((d) => d.text)).toEqual(['0', '1', '2']);
  const tags = drawn.map((d) => ({ x: d.tag.x + 2, y: d.tag.y + 2, w: d.tag.w - 4, h: d.tag.h - 4, colour: d.colour }));
  // a box's left edge: the 2 px line in its colour
  const edges = drawn.map((d) => ({ x: Math.ceil(d.box.x), y: Math.round(d.box.y) + 4, w: 1, h: Math.round(d.box.height) - 8, colour: d.colour }));
  const model = await colourShares(image, [...tags, ...edges]);
  expect(model.width).toBe(view.width);
  for (const [i, share] of model.shares.entries()) expect(share, `${i < tags.length ? 'tag' : 'box edge'} ${i % tags.length} in the model's picture`).toBeGreaterThan(i < tags.length ? 0.25 : 0.7);
  // the history keeps the same capture twice: labelled, and clean (no label anywhere)
  expect((await colourShares(first.screenshot, tags)).shares.every((s) => s > 0.25)).toBe(true);
  expect((await colourShares(first.cleanScreenshot, [...tags, ...edges])).shares.every((s) => s < 0.05)).toBe(true);
});
