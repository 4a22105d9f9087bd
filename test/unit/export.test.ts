/**
 * The pure export builders (src/core/export): WebVoyager messages against a published run's
 * shape, the HTML report's escaping of hostile trace text, the zip's entries, the palette PNG
 * encoder, and that no export adds a secret the trace scrubbed.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { strFromU8, unzipSync, unzlibSync, zipSync, zlibSync } from 'fflate';
import { createRun, reduce } from '../../src/core/run';
import { toTrace, type Trace, type TraceStep } from '../../src/core/trace';
import { base64Decode, base64Encode, dataUrlToBytes, isPng } from '../../src/core/export/data-url';
import { buildHtmlReport, escapeHtml, htmlReport, jsonForScript } from '../../src/core/export/html-report';
import { REPORT_TEXT, reportText } from '../../src/core/export/report-text';
import { translatorFor } from '../../src/core/locales';
import { encodePalettePng } from '../../src/core/export/png';
import { toInteractMessages, WV_IMAGE_PLACEHOLDER, wvAnswerOf, type WvMessage } from '../../src/core/export/webvoyager';
import { buildZip, zipContents, zipFiles } from '../../src/core/export/zip';
import { fitTrace, largestFirst } from '../../src/core/export/fit';

const EXAMPLES = path.resolve(import.meta.dirname, '..', 'fixtures', 'webvoyager');
const PNG_SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const jpegUrl = (seed: number) => `data:image/jpeg;base64,${base64Encode(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, seed, 1, 2, 3]))}`;
const HOSTILE = '</script><img src=x onerror=alert(1)><!-- \u2028 \u2029';

function step(index: number, over: Partial<TraceStep> = {}): TraceStep {
  return {
    index, url: `https://shop.example/p${index}`, title: `Page ${index}`, viewport: { width: 1280, height: 800, devicePixelRatio: 1 },
    elements: [
      { label: 0, tag: 'input', text: 'Search', rect: { x: 1, y: 2, width: 3, height: 4 } },
      { label: 1, tag: 'a', text: '  Miso\n Ramen ', rect: { x: 1, y: 2, width: 3, height: 4 } },
      { label: 2, tag: 'div', text: '', rect: { x: 1, y: 2, width: 3, height: 4 } },
    ],
    request: { promptText: 'prompt', imageBytes: 10, imageWidth: 1280, imageHeight: 800 },
    reply: { raw: `<think>hmm</think><answer>Thought: step ${index}\nAction: <|begin_of_box|>Click [1]<|end_of_box|>\nMemory_Updated: {}</answer>`, reasoning: 'hmm' },
    thought: `step ${index}`, action: { type: 'click', target: { kind: 'label', label: 1 }, button: 'left', count: 1 } as TraceStep['action'], actionText: 'Click [1]', target: null, memory: { n: index },
    approval: { decision: 'auto', feedback: null }, result: { ok: true }, observation: 'Success',
    timings: { observeMs: 1, modelMs: 2, actMs: 3, totalMs: 6 }, usage: { promptTokens: 100, completionTokens: 20 },
    screenshot: jpegUrl(index), cleanScreenshot: jpegUrl(100 + index),
    ...over,
  };
}

function trace(steps: TraceStep[]): Trace {
  return {
    format: 'webagent-trace', version: 2,
    run: { id: 'run-1', task: 'Find the\ncalories', startUrl: 'https://shop.example/', dialect: 'glm-web', model: 'glm-4.5v', baseUrl: 'http://h/v1', startedAt: '2025-01-01T00:00:00.000Z', endedAt: '2025-01-01T00:01:00.000Z', status: 'finished', answer: '610 kcal', stopReason: null },
    steps,
  };
}

const answerStep = (i: number) => step(i, {
  action: { type: 'answer', text: '610 kcal' }, actionText: 'ANSWER; <content>610 kcal</content>', thought: 'Found it.',
  reply: { raw: '<answer>Thought: Found it.\nAction: <|begin_of_box|>ANSWER; <content>610 kcal</content><|end_of_box|>\nMemory_Updated: {}</answer>', reasoning: null },
});
const fiveSteps = () => trace([step(0), step(1, { result: { ok: false, error: 'Element [9] is gone.' }, observation: 'Element [9] is gone.' }), step(2), step(3), answerStep(4)]);

const kind = (m: WvMessage) => `${m.role[0]}${typeof m.content === 'string' ? 'S' : 'L'}`;

describe('WebVoyager interact_messages.json', () => {
  const example = JSON.parse(readFileSync(path.join(EXAMPLES, 'Allrecipes--4.json'), 'utf8')) as WvMessage[];
  const msgs = toInteractMessages(fiveSteps());

  it('has the example runs\' shape: system, then user/assistant per step, the last 3 user messages with the image', () => {
    expect(msgs.map(kind).join(' ')).toBe('sS uS aS uS aS uL aS uL aS uL aS');
    // the example: same roles, same forms (older user messages clipped to strings)
    expect(example.map(kind).join(' ')).toMatch(/^sS( uS aS)*( uL aS){3}$/);
    const keys = (ms: WvMessage[]) => new Set(ms.map((m) => Object.keys(m).sort().join()));
    expect(keys(msgs)).toEqual(keys(example));
    const parts = (ms: WvMessage[]) => new Set(ms.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.map((p) => `${p.type}:${Object.keys(p).sort().join()}`))));
    expect(parts(msgs)).toEqual(parts(example));
    const img = (ms: WvMessage[]) => ms.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((p) => p.type === 'image_url').map((p) => (p as { image_url: { url: string } }).image_url.url)));
    expect(new Set(img(msgs))).toEqual(new Set(img(example)));
    expect(img(msgs)[0]).toBe(WV_IMAGE_PLACEHOLDER);
  });

  it('words the user turns as WebVoyager does, and auto_eval.py finds the task and the answer', () => {
    const first = msgs[1].content as string;
    expect(first).toBe('Now given a task: Find the calories  Please interact with https://shop.example/ and get the answer.Observation: A screenshot and some texts. (Omitted in context.)');
    expect(/Now given a task:(.+?)Please interact with/.exec(first)?.[1].trim()).toBe('Find the calories');
    expect(msgs[3].content).toBe('Observation: A screenshot and some texts. (Omitted in context.)');
    const third = (msgs[5].content as Array<{ type: string; text?: string }>)[0].text!;
    // the failure of the step before is the observation's note (WebVoyager's warn_obs)
    expect(third.startsWith('Observation:Element [9] is gone. please analyze the attached screenshot and give the Thought and Action.')).toBe(true);
    expect(third.endsWith('\n[0]: <input> "Search";\t[1]: "Miso Ramen";')).toBe(true);
    const exampleThird = example.filter((m) => m.role === 'user' && typeof m.content !== 'string')[1].content as Array<{ text?: string }>;
    expect(exampleThird[0].text!.split('\n')[0]).toBe(third.split('\n')[0].replace('Observation:Element [9] is gone.', 'Observation:'));
    const last = msgs.at(-1)!;
    expect(last.role).toBe('assistant');
    expect(last.content).toContain('Action: ANSWER');
    expect(wvAnswerOf(last.content as string)).toBe('610 kcal');
    expect(wvAnswerOf(example.at(-1)!.content as string)).toBeTruthy();
    // other steps: the model's raw reply as it is
    expect(msgs[2].content).toBe(fiveSteps().steps[0].reply.raw);
  });

  it('keeps a raw answer reply auto_eval.py can read as it is', () => {
    const raw = 'Thought: Done.\n\nAction: ANSWER; 610 kcal';
    const m = toInteractMessages(trace([step(0, { action: { type: 'answer', text: '610 kcal' }, reply: { raw, reasoning: null } })]));
    expect(m.at(-1)!.content).toBe(raw);
    const first = (m[1].content as Array<{ text?: string }>)[0].text!;
    expect(first.startsWith("Now given a task: Find the calories  Please interact with https://shop.example/ and get the answer. \nObservation: please analyze the attached screenshot")).toBe(true);
  });
});

describe('HTML report', () => {
  const hostile = trace([step(0, {
    thought: HOSTILE, url: HOSTILE, observation: HOSTILE, memory: { note: HOSTILE }, reply: { raw: HOSTILE, reasoning: HOSTILE },
    screenshot: 'https://evil.example/x.png', cleanScreenshot: '',
  }), step(1)]);
  hostile.run.task = HOSTILE;
  const html = buildHtmlReport(hostile);
  const dataOf = (h: string) => JSON.parse(/<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(h)![1]) as {
    steps: Array<{ thought: string; words: string; shot: number; clean: number; memory: string }>; images: string[]; cleanLeftOut: number; text: typeof REPORT_TEXT;
  };

  it('shows a step\'s observe stages beside its timings when the trace has them', () => {
    const stages = { settleMs: 12, labelMs: 63, captureMs: 40, encodeMs: 0, requestMs: 116 };
    const t = trace([step(0, { timings: { observeMs: 120, modelMs: 2, actMs: 3, totalMs: 130, observeStages: stages } }), step(1)]);
    const words = (dataOf(buildHtmlReport(t)).steps as unknown as Array<{ timings: string }>).map((s) => s.timings);
    expect(words[0]).toBe('observe 120 ms · model 2 ms · act 3 ms · total 130 ms (waiting for the page 12 ms · labels 63 ms · screenshot 40 ms · request sent after 116 ms)');
    expect(words[1]).toBe('observe 1 ms · model 2 ms · act 3 ms · total 6 ms');
  });

  it('draws the box an action named (a quote) or the element found at its point, and the point itself', () => {
    const box = { x: 100, y: 50, width: 300, height: 200 };
    const rect = { x: 10, y: 20, width: 30, height: 40 };
    const t = trace([
      step(0, { action: { type: 'quote', target: { kind: 'point', x: 250, y: 150 }, box, all: false, output: '__CogName_Price__' } }),
      step(1, { action: { type: 'click', target: { kind: 'point', x: 25, y: 40 }, button: 'left', count: 1 }, target: { tag: 'a', text: 'Go', rect } }),
      step(2, { action: { type: 'click', target: { kind: 'label', label: 1 }, button: 'left', count: 1 }, target: { tag: 'a', text: 'Go', rect } }),
    ]);
    const steps = dataOf(buildHtmlReport(t)).steps as unknown as Array<{ box: unknown; point: unknown }>;
    expect(steps.map((s) => [s.box, s.point])).toEqual([[box, { x: 250, y: 150 }], [rect, { x: 25, y: 40 }], [null, null]]);
  });

  it('embeds hostile trace text inertly: escaped in the page, intact in the player\'s data', () => {
    expect(html.match(/<\/script/gi)).toHaveLength(2); // our own two closing tags only
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<!-- ');
    expect(html).not.toMatch(/[\u2028\u2029]/);
    expect(html).toContain(escapeHtml(HOSTILE));
    const data = dataOf(html);
    expect(data.steps[0].thought).toBe(HOSTILE);
    expect(JSON.parse(data.steps[0].memory)).toEqual({ note: HOSTILE });
    expect(jsonForScript({ a: '</script>' })).toBe('{"a":"\\u003c/script>"}');
    expect(escapeHtml(`<a href="x" title='y'>&`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;');
  });

  it('writes with textContent, never innerHTML, embeds only image data URLs, and allows no network', () => {
    expect(html).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    expect(html).toContain('textContent');
    expect(html).not.toContain('https://evil.example');
    expect(html).toContain(jpegUrl(1));
    expect(html).toContain("default-src 'none'; img-src data:");
    expect(html).not.toMatch(/\b(src|href)="https?:/);
  });

  it('shows the whole run at a glance: summary, then every step\'s thought, action with its element, and outcome', () => {
    const t = fiveSteps();
    t.run.price = { inputPerMillion: 1, outputPerMillion: 10 };
    t.steps[0] = step(0, { target: { tag: 'a', text: 'Miso Ramen', rect: { x: 0, y: 0, width: 1, height: 1 } } });
    const h = buildHtmlReport(t);
    const text = h.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Find the\ncalories'.replace(/\s+/g, ' '));
    expect(text).toContain('Answer 610 kcal');
    expect(text).toContain('Status: finished');
    expect(text).toContain('Steps 5');
    expect(text).toContain('Duration 1 min 00 s');
    expect(text).toContain('Tokens 600 (500 prompt + 100 completion)');
    expect(text).toContain('Cost 0.0015'); // 500 × 1 + 100 × 10 per million (a trace without a currency: the number alone)
    t.run.currency = 'USD';
    expect(buildHtmlReport(t).replace(/<[^>]+>/g, ' ')).toContain('$0.0015');
    expect(buildHtmlReport(t, { text: reportText(translatorFor('zh_CN')) }).replace(/<[^>]+>/g, ' ')).toContain('US$0.0015');
    delete t.run.currency;
    expect(h).toContain('<time datetime="2025-01-01T00:00:00.000Z">');
    // the list: every step in order, its action with the element, thought and outcome
    const items = [...h.matchAll(/<li class="step" id="step-(\d+)"[\s\S]*?<\/li>/g)];
    expect(items.map((m) => m[1])).toEqual(['1', '2', '3', '4', '5']);
    expect(items[0][0]).toContain('Click [1] &lt;a&gt; &quot;Miso Ramen&quot;');
    expect(items[2][0]).toContain('Click [1] &lt;a&gt; &quot;Miso Ramen&quot;'); // no target: the label's element from the list
    expect(items[1][0]).toContain('step 1');
    expect(items[1][0]).toMatch(/class="badge fail"[^<]*failed/);
    expect(items[1][0]).toContain('Element [9] is gone.');
    expect(items[4][0]).toContain('ANSWER; &lt;content&gt;610 kcal&lt;/content&gt;');
    expect(dataOf(h).steps[0].words).toBe('Click [1] <a> "Miso Ramen"');
    // unknown price, no usage, still running
    const open = trace([step(0, { usage: null })]);
    open.run.endedAt = null;
    const o = buildHtmlReport(open).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(o).toContain('Cost unknown (no price for this model)');
    expect(o).toContain('Tokens not reported');
    expect(o).toContain('Duration still running');
  });

  it('says why a run ended without an answer, and that a run has no steps', () => {
    const t = trace([]);
    t.run = { ...t.run, status: 'stopped', answer: null, stopReason: 'Reached the maximum of 3 steps without an answer.' };
    const h = buildHtmlReport(t);
    expect(h).toContain('id="stop-reason"');
    expect(h).toContain('Reached the maximum of 3 steps without an answer.');
    expect(h).not.toContain('id="answer"');
    expect(h).toContain('This run has no steps.');
    expect(h).not.toContain('id="player"');
  });

  it('embeds each distinct picture once', () => {
    const same = jpegUrl(7);
    const t = trace([step(0, { screenshot: same, cleanScreenshot: same }), step(1, { screenshot: same, cleanScreenshot: jpegUrl(8) }), step(2)]);
    const h = buildHtmlReport(t);
    expect(h.split(same).length - 1).toBe(1);
    const d = dataOf(h);
    expect(d.images).toHaveLength(4);
    expect(d.steps.map((x) => [x.shot, x.clean])).toEqual([[0, 0], [0, 1], [2, 3]]);
  });

  it('leaves clean views out, largest first, only as far as needed to stay under the size budget', () => {
    const big = `data:image/jpeg;base64,${'A'.repeat(4000)}`;
    const t = fiveSteps();
    t.steps[2].cleanScreenshot = big;
    const full = htmlReport(t);
    expect(full.html).toContain(big);
    expect(full.cleanLeftOut).toBe(0);
    expect(full.html).not.toContain('id="left-out"');
    const one = htmlReport(t, { maxChars: full.html.length - 100 });
    expect(one.html).not.toContain(big);
    expect(one.html).toContain(jpegUrl(101));
    expect(one.cleanLeftOut).toBe(1);
    expect(one.html).toContain('The clean view of 1 of 5 steps was left out');
    expect(one.html.length).toBeLessThanOrEqual(full.html.length - 100);
    const none = htmlReport(t, { maxChars: 100 });
    for (let i = 0; i < 5; i++) expect(none.html).toContain(jpegUrl(i)); // labelled ones always kept
    expect(none.html).not.toContain(jpegUrl(101));
    expect(none.cleanLeftOut).toBe(5);
  });

  it('takes every word a person reads from one strings object', () => {
    const marked = Object.fromEntries(Object.entries(REPORT_TEXT).map(([k, v]) => [k, typeof v === 'string'
      ? (k === 'lang' ? 'zz' : `«${v.replace(/[A-Za-z]+/g, 'W')}»`)
      : Object.fromEntries(Object.entries(v).map(([kk], i) => [kk, `«${i}»`]))])) as typeof REPORT_TEXT;
    const t = fiveSteps();
    t.steps[1] = step(1, { action: { type: 'takeover' }, actionText: 'The user took over the browser' });
    const h = buildHtmlReport(t, { text: marked });
    const shown = h.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, '\n').replace(/&\w+;/g, ' ')
      .replace(/https?:\/\/\S+|[\d.:TZ-]{20,}/g, '');
    // what is left in English comes from the trace (task, thoughts, actions, observations), not the report
    const fromTrace = new Set([t.run.task, t.run.answer!, t.run.model, ...t.steps.flatMap((s) => [s.thought, s.observation, s.actionText])].join(' ').split(/\W+/));
    const english = (shown.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !fromTrace.has(w) && !['glm', 'web', 'Miso', 'Ramen', 'kcal', 'content'].includes(w));
    expect(english).toEqual([]);
    expect(h).toContain('<html lang="zz">');
    expect(dataOf(h).text.counter).toBe(marked.counter);
  });

  it('in Chinese: every word of the report itself is Chinese, lang is zh-CN, and each template keeps its places', () => {
    const zh = reportText(translatorFor('zh_CN'));
    const places = (v: string) => [...v.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [k, v] of Object.entries(REPORT_TEXT)) {
      const z = (zh as Record<string, unknown>)[k];
      if (typeof v === 'string') expect(places(z as string), k).toEqual(places(v));
      else expect(Object.keys(z as object), k).toEqual(Object.keys(v));
    }
    const t = fiveSteps();
    t.steps[1] = step(1, { action: { type: 'takeover' }, actionText: 'The user took over the browser', approval: null, usage: null });
    t.steps[2] = step(2, { approval: { decision: 'rejected', feedback: null }, timings: { observeMs: 1500, modelMs: 65_000, actMs: 4_000_000, totalMs: 4_066_500 } });
    t.run = { ...t.run, status: 'stopped', answer: null, stopReason: 'Reached the limit', endedAt: null };
    const full = htmlReport(t, { text: zh }).html;
    const h = htmlReport(t, { text: zh, maxChars: full.length - 100 });
    expect(h.cleanLeftOut).toBeGreaterThan(0); // the left-out note is shown too
    const shown = h.html.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, '\n').replace(/&\w+;/g, ' ')
      .replace(/https?:\/\/\S+|[\d.:TZ-]{20,}/g, '');
    const fromTrace = new Set([t.run.task, t.run.stopReason!, t.run.model, ...t.steps.flatMap((s) => [s.thought, s.observation, s.actionText])].join(' ').split(/\W+/));
    // key names, the same on every keyboard; "Token", the term Chinese model consoles use too; a
    // product, a command and its option ("Playwright", "node 文件.mjs --yes")
    const kept = ['Ctrl', 'Home', 'End', 'Esc', 'Token', 'Playwright', 'node', 'mjs', 'yes'];
    const english = (shown.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !fromTrace.has(w) && !kept.includes(w) && !['glm', 'web', 'Miso', 'Ramen', 'kcal', 'content'].includes(w));
    expect(english).toEqual([]);
    expect(shown).toContain('运行报告'); // the report's own title, in Chinese
    expect(shown).toContain('你接管了浏览器'); // the take-over step
    expect(shown).toContain('1 小时 07 分'); // a Chinese duration
    expect(h.html).toContain('<html lang="zh-CN">');
    // the player's words (written by the report's script) are Chinese as well
    const words = dataOf(h.html).text as unknown as Record<string, unknown>;
    const english2 = Object.entries(words).filter(([k, v]) => typeof v === 'string' && !['lang', 'empty'].includes(k) && !/\p{Script=Han}/u.test(v));
    expect(english2).toEqual([]);
    // and the English report is unchanged: the same words, from the English message file
    expect(buildHtmlReport(t)).toContain('<html lang="en">');
    expect(buildHtmlReport(t)).toContain(`<title>Run report: ${t.run.task}</title>`);
  });
});

describe('zip export', () => {
  it('holds trace.json naming its screenshot files, the WebVoyager folder and real PNGs', () => {
    const pngBytes = encodePalettePng(new Uint8Array(16).fill(200), 2, 2, (d) => zlibSync(d));
    const t = trace([
      step(0), // JPEG labelled: converted PNG comes from the map
      step(1, { screenshot: `data:image/png;base64,${base64Encode(pngBytes)}` }), // already PNG: as it is
      step(2, { screenshot: '', cleanScreenshot: '' }), // excluded
      step(3), // JPEG without a converted PNG
      answerStep(4),
    ]);
    const converted = new Uint8Array([...PNG_SIG, 9, 9]);
    const files = unzipSync(buildZip(t, new Map([[0, converted], [2, converted], [4, converted]]), zipSync));
    expect(Object.keys(files).sort()).toEqual([
      'screenshots/clean-1.jpg', 'screenshots/clean-2.jpg', 'screenshots/clean-4.jpg', 'screenshots/clean-5.jpg', 'screenshots/labelled-4.jpg',
      'trace.json', 'webvoyager/interact_messages.json', 'webvoyager/screenshot1.png', 'webvoyager/screenshot2.png', 'webvoyager/screenshot5.png',
    ]);
    const tj = JSON.parse(strFromU8(files['trace.json'])) as Trace;
    expect(tj.steps.map((s) => s.screenshot)).toEqual(['webvoyager/screenshot1.png', 'webvoyager/screenshot2.png', '', 'screenshots/labelled-4.jpg', 'webvoyager/screenshot5.png']);
    expect(tj.steps.map((s) => s.cleanScreenshot)).toEqual(['screenshots/clean-1.jpg', 'screenshots/clean-2.jpg', '', 'screenshots/clean-4.jpg', 'screenshots/clean-5.jpg']);
    for (const s of tj.steps) for (const f of [s.screenshot, s.cleanScreenshot]) if (f) expect(files[f]).toBeDefined();
    expect(tj.run).toEqual(t.run);
    expect(files['webvoyager/screenshot1.png']).toEqual(converted);
    expect(files['webvoyager/screenshot2.png']).toEqual(pngBytes);
    expect(files['screenshots/clean-2.jpg']).toEqual(dataUrlToBytes(jpegUrl(101))!.bytes);
    for (const n of [1, 2, 5]) expect(isPng(files[`webvoyager/screenshot${n}.png`])).toBe(true);
    expect(JSON.parse(strFromU8(files['webvoyager/interact_messages.json']))).toEqual(toInteractMessages(t));
    // images stored, JSON deflated
    expect(zipFiles(t, new Map([[0, converted]]))['webvoyager/screenshot1.png'][1]).toEqual({ level: 0 });
    expect(zipFiles(t)['trace.json'][1]).toEqual({ level: 6 });
  });

  it('stores a clean view several steps share once, and leaves clean files out, largest first, over the budget', () => {
    const big = `data:image/webp;base64,${base64Encode(new Uint8Array(3000).fill(7))}`;
    const t = trace([step(0, { cleanScreenshot: jpegUrl(50) }), step(1, { cleanScreenshot: jpegUrl(50) }), step(2, { cleanScreenshot: big }), answerStep(3)]);
    const all = zipContents(t);
    expect(all.cleanLeftOut).toBe(0);
    const names = (f: Record<string, unknown>) => JSON.parse(strFromU8((f as Record<string, [Uint8Array]>)['trace.json'][0])) as Trace;
    expect(names(all.files).steps.map((x) => x.cleanScreenshot)).toEqual(['screenshots/clean-1.jpg', 'screenshots/clean-1.jpg', 'screenshots/clean-3.webp', 'screenshots/clean-4.jpg']);
    expect(Object.keys(all.files).filter((f) => f.startsWith('screenshots/clean'))).toHaveLength(3);
    const size = Object.values(all.files).reduce((a, [b]) => a + b.length, 0);
    const cut = zipContents(t, new Map(), size - 1000);
    expect(cut.cleanLeftOut).toBe(1);
    expect(cut.files['screenshots/clean-3.webp']).toBeUndefined();
    expect(names(cut.files).steps.map((x) => x.cleanScreenshot)).toEqual(['screenshots/clean-1.jpg', 'screenshots/clean-1.jpg', '', 'screenshots/clean-4.jpg']);
    const none = zipContents(t, new Map(), 10);
    expect(none.cleanLeftOut).toBe(4);
    expect(Object.keys(none.files).filter((f) => f.includes('labelled-')).length).toBe(4); // labelled ones always kept
  });
});

describe('export budget', () => {
  it('leaves the largest clean views out of the JSON until it fits, never a labelled one', () => {
    const big = (n: number) => `data:image/webp;base64,${'B'.repeat(n)}`;
    const t = trace([step(0, { cleanScreenshot: big(5000) }), step(1, { cleanScreenshot: big(9000) }), step(2, { cleanScreenshot: big(7000) })]);
    const len = JSON.stringify(t).length;
    expect(fitTrace(t, len)).toEqual({ trace: t, cleanLeftOut: 0 });
    const one = fitTrace(t, len - 8000);
    expect(one.cleanLeftOut).toBe(1);
    expect(one.trace.steps.map((x) => x.cleanScreenshot.length)).toEqual([big(5000).length, 0, big(7000).length]);
    expect(JSON.stringify(one.trace).length).toBeLessThanOrEqual(len - 8000);
    const two = fitTrace(t, len - 10_000);
    expect(two.trace.steps.map((x) => x.cleanScreenshot === '')).toEqual([false, true, true]);
    const all = fitTrace(t, 10);
    expect(all.cleanLeftOut).toBe(3);
    expect(all.trace.steps.map((x) => x.screenshot)).toEqual(t.steps.map((x) => x.screenshot));
    expect([...largestFirst([{ key: 'a', size: 1 }, { key: 'b', size: 5 }], 0)]).toEqual([]);
  });
});

describe('helpers', () => {
  it('base64 round-trips every length and matches Node\'s encoding', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      const b64 = base64Encode(bytes);
      expect(b64).toBe(Buffer.from(bytes).toString('base64'));
      expect(base64Decode(b64)).toEqual(bytes);
    }
    expect(() => base64Decode('ab$c')).toThrow(/Not base64/);
    expect(dataUrlToBytes('webvoyager/screenshot1.png')).toBeNull();
    expect(dataUrlToBytes('data:text/html;base64,PGI+')).toBeNull();
  });

  it('base64: a long run of "=" that does not end the text is rejected in one pass (no backtracking regex)', () => {
    // With the old /=+$/ a 40 kB run took ~0.8 s and grew with the square; 2 MB would take half an hour.
    const hostile = '='.repeat(2_000_000) + 'A';
    const t = performance.now();
    expect(() => base64Decode(hostile)).toThrow(/Not base64: character "=" at 0/);
    expect(base64Decode('QQ' + '='.repeat(2_000_000))).toEqual(Uint8Array.of(65)); // trailing padding of any length is stripped
    expect(performance.now() - t).toBeLessThan(5000); // linear: a few ms; generous for a loaded machine
  });

  it('encodes a palette PNG whose pixels decode back to the colours given', () => {
    const colours = [[255, 0, 0], [0, 128, 255], [250, 250, 250], [10, 10, 10], [0, 200, 0], [255, 255, 0]];
    const rgba = new Uint8Array(colours.flatMap((c) => [...c, 255]));
    const png = encodePalettePng(rgba, 3, 2, (d) => zlibSync(d, { level: 9 }));
    expect(Array.from(png.subarray(0, 8))).toEqual(PNG_SIG);
    const view = new DataView(png.buffer, png.byteOffset);
    const chunks: Record<string, Uint8Array> = {};
    for (let o = 8; o < png.length;) {
      const len = view.getUint32(o);
      chunks[String.fromCharCode(...png.subarray(o + 4, o + 8))] = png.subarray(o + 8, o + 8 + len);
      o += 12 + len;
    }
    expect(Object.keys(chunks)).toEqual(['IHDR', 'PLTE', 'IDAT', 'IEND']);
    expect([view.getUint32(16), view.getUint32(20), chunks.IHDR[8], chunks.IHDR[9]]).toEqual([3, 2, 8, 3]);
    const raw = unzlibSync(chunks.IDAT);
    const decoded: number[][] = [];
    for (let y = 0; y < 2; y++) for (let x = 0; x < 3; x++) {
      const i = raw[y * 4 + 1 + x];
      decoded.push(Array.from(chunks.PLTE.subarray(i * 3, i * 3 + 3)));
    }
    expect(decoded).toEqual(colours);
  });
});

describe('no export adds a secret', () => {
  it('a key the trace scrubbed appears in no byte of the JSON, the report or the zip', () => {
    const key = 'sk-export-5e3b7a91c2d4';
    let s = createRun({ id: 'r', task: `find it ${key}`, startUrl: 'https://a.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 5, at: 0 });
    const obs = { url: 'https://a.example/', title: key, viewport: { width: 10, height: 10, devicePixelRatio: 1 }, marks: [], screenshot: { dataUrl: jpegUrl(1), bytes: 8, width: 10, height: 10 } };
    s = reduce(s, { type: 'observed', at: 10, ms: 5, obs });
    s = reduce(s, { type: 'replied', at: 20, ms: 5, raw: `Thought: the key is ${key}\nAction: ANSWER; <content>${key}</content>`, reasoning: key, usage: null });
    const t = toTrace(s, [key]);
    expect(t.steps).toHaveLength(1);
    const bytes = new TextEncoder().encode(key);
    const has = (hay: Uint8Array) => hay.some((_, i) => bytes.every((b, j) => hay[i + j] === b));
    const zip = buildZip(t, new Map(), zipSync);
    expect(has(new TextEncoder().encode(JSON.stringify(t)))).toBe(false);
    expect(has(new TextEncoder().encode(buildHtmlReport(t)))).toBe(false);
    expect(has(zip)).toBe(false);
    for (const [name, entry] of Object.entries(unzipSync(zip))) expect([name, has(entry)]).toEqual([name, false]);
    // the check can fail: the unscrubbed run's exports do carry it
    expect(has(new TextEncoder().encode(buildHtmlReport(toTrace(s, []))))).toBe(true);
  });
});
