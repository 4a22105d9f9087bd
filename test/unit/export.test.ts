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
import { buildHtmlReport, jsonForScript } from '../../src/core/export/html-report';
import { encodePalettePng } from '../../src/core/export/png';
import { toInteractMessages, WV_IMAGE_PLACEHOLDER, wvAnswerOf, type WvMessage } from '../../src/core/export/webvoyager';
import { buildZip, zipFiles } from '../../src/core/export/zip';

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

  it('embeds hostile trace text inertly: it cannot close the data script, and comes back intact', () => {
    expect(html.match(/<\/script/gi)).toHaveLength(2); // our own two closing tags only
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<!-- ');
    expect(html).not.toMatch(/[\u2028\u2029]/);
    const m = /<script type="application\/json" id="trace-data">([\s\S]*?)<\/script>/.exec(html);
    const data = JSON.parse(m![1]) as { trace: Trace };
    expect(data.trace.steps[0].thought).toBe(HOSTILE);
    expect(data.trace.run.task).toBe(HOSTILE);
    expect(jsonForScript({ a: '</script>' })).toBe('{"a":"\\u003c/script>"}');
  });

  it('renders with textContent, never innerHTML, embeds only image data URLs, and allows no network', () => {
    expect(html).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    expect(html).toContain('textContent');
    expect(html).not.toContain('https://evil.example');
    expect(html).toContain(jpegUrl(1));
    expect(html).toContain("default-src 'none'; img-src data:");
    expect(html).not.toMatch(/\b(src|href)="https?:/);
  });

  it('leaves clean views out, largest first, only as far as needed to stay under the size budget', () => {
    const big = `data:image/jpeg;base64,${'A'.repeat(4000)}`;
    const t = fiveSteps();
    t.steps[2].cleanScreenshot = big;
    const full = buildHtmlReport(t);
    expect(full).toContain(big);
    expect(full).toContain('"cleanLeftOut":0');
    const one = buildHtmlReport(t, { maxChars: full.length - 100 });
    expect(one).not.toContain(big);
    expect(one).toContain(jpegUrl(101));
    expect(one).toContain('"cleanLeftOut":1');
    expect(one.length).toBeLessThanOrEqual(full.length - 100);
    const none = buildHtmlReport(t, { maxChars: 100 });
    for (let i = 0; i < 5; i++) expect(none).toContain(jpegUrl(i)); // labelled ones always kept
    expect(none).not.toContain(jpegUrl(101));
    expect(none).toContain('"cleanLeftOut":5');
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
