/**
 * The fake model's coordinate-dialect parts (test/fixtures/model/): the PNG decoder and image
 * sizes, finding targets by colour, the request checks of glm-pc and glm-mobile (they accept what
 * the real dialects build and reject an element list, the benchmark lines, wrong image sizes), and
 * the players: driven in a loop with the real dialect (its buildRequest, toMessages, parseReply),
 * they answer in forms the dialect reads, to the action intended, at the target they found.
 */
import { describe, expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import { glmPc } from '../../src/core/dialects/glm-pc';
import { glmMobile } from '../../src/core/dialects/glm-mobile';
import { uiTars } from '../../src/core/dialects/ui-tars';
import { checkRequestUiTars, parseRequestUiTars } from '../fixtures/dialects/ui-tars/request';
import { toMessages } from '../../src/core/dialects/request';
import { isParseError, type Action, type ParsedStep } from '../../src/core/action/action';
import type { ShotGeometry } from '../../src/core/action/coords';
import type { Dialect, DialectContext, HistoryEntry, RequestPart } from '../../src/core/dialects/types';
import type { DialectId } from '../../src/core/dialects/registry';
import { blankImage, decodePng, encodePng, fillRect, imageSize, pngDataUrl, type Rgba } from '../../scripts/png';
import { centreOf, clusters, COLOURS, locate, parseColour, toThousandths } from '../fixtures/model/locate';
import { checkRequestPC, parseRequestPC } from '../fixtures/dialects/glm-pc/request';
import { checkRequestMobile, parseRequestMobile } from '../fixtures/dialects/glm-mobile/request';
import { record, startFakeModel } from '../fixtures/model/server';
import { DIALECT_FIXTURES } from '../fixtures/dialects/index';
import { DIALECTS } from '../../src/core/dialects/registry';
import { pcPlayer, progressOf, type CoordGoal, type ReplyVariant } from '../fixtures/dialects/glm-pc/player';
import { mobilePlayer, type MobileVariant } from '../fixtures/dialects/glm-mobile/player';
import { cpuBudget } from '../fixtures/cpu-budget';

const KEY = 'sk-unit-1234567890';
const rgb = (c: string) => parseColour(c);

/** A minimal JPEG: SOI, APP0, SOF0 with the size, EOI (enough for a header reader). */
function fakeJpeg(width: number, height: number): string {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];
  const sof = [0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, ...app0, ...sof, 0xff, 0xd9]).toString('base64')}`;
}

/** A desktop "page": white, a few colour targets at odd places, some text-like noise. */
function scene(width: number, height: number, targets: Array<[string, number, number, number, number]>): Rgba {
  const img = blankImage(width, height);
  for (const [c, x, y, w, h] of targets) fillRect(img, x, y, w, h, rgb(c));
  // anti-aliased-looking specks of target colours (below the cluster size): must be ignored
  fillRect(img, 3, 3, 3, 3, rgb(COLOURS.magenta));
  fillRect(img, width - 9, height - 9, 4, 4, rgb(COLOURS.cyan));
  return img;
}

describe('png', () => {
  it('decodes what it encodes: RGBA and RGB, every filter type', () => {
    const img = blankImage(37, 23, [10, 20, 30]);
    for (let i = 0; i < img.pixels.length; i += 4) img.pixels.set([(i * 7) & 255, (i * 13) & 255, (i * 3) & 255, 255 - ((i >> 2) & 127)], i);
    for (const filters of [[0], [1], [2], [3], [4], [0, 1, 2, 3, 4]]) {
      const out = decodePng(encodePng(img, { filters }));
      expect(out.width).toBe(37);
      expect(out.height).toBe(23);
      expect(Buffer.from(out.pixels).equals(Buffer.from(img.pixels))).toBe(true);
      const rgbOnly = decodePng(`data:image/png;base64,${encodePng(img, { channels: 3, filters }).toString('base64')}`);
      for (let i = 0; i < img.pixels.length; i += 4) {
        expect([...rgbOnly.pixels.subarray(i, i + 4)]).toEqual([img.pixels[i], img.pixels[i + 1], img.pixels[i + 2], 255]);
      }
    }
  });

  it('decodes a PNG written by hand with node:zlib (Sub and Up filters, IDAT split in two chunks)', () => {
    // 2x2 RGB: red, green / blue, white. Row 0 filtered with Sub, row 1 with Up.
    const raw = Buffer.from([
      1, 255, 0, 0, 1, 255, 0, // red; green - red = (-255, 255, 0)
      2, 1, 0, 255, 255, 0, 255, // blue - red = (-255, 0, 255); white - green = (255, 0, 255)
    ]);
    const z = deflateSync(raw);
    const chunk = (type: string, data: Buffer) => {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(data.length, 0);
      head.write(type, 4, 'latin1');
      return Buffer.concat([head, data, Buffer.alloc(4)]); // the decoder does not check CRCs
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(2, 0); ihdr.writeUInt32BE(2, 4); ihdr[8] = 8; ihdr[9] = 2;
    const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const bytes = Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', z.subarray(0, 5)), chunk('IDAT', z.subarray(5)), chunk('IEND', Buffer.alloc(0))]);
    const out = decodePng(bytes);
    expect([...out.pixels]).toEqual([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]);
  });

  it('reads PNG and JPEG sizes from their headers', () => {
    expect(imageSize(pngDataUrl(blankImage(640, 7)))).toEqual({ format: 'png', width: 640, height: 7 });
    expect(imageSize(fakeJpeg(640, 400))).toEqual({ format: 'jpeg', width: 640, height: 400 });
    expect(imageSize('data:image/png;base64,AAAA')).toBeNull();
    expect(() => decodePng('data:image/png;base64,AAAA')).toThrow(/not a PNG/);
  });
});

describe('locate', () => {
  const img = scene(400, 300, [[COLOURS.magenta, 37, 51, 73, 41], [COLOURS.cyan, 200, 200, 101, 31], [COLOURS.yellow, 399, 0, 1, 300]]);
  it('finds the bounding box of the largest cluster, ignoring specks', () => {
    expect(locate(img, COLOURS.magenta)).toMatchObject({ x: 37, y: 51, width: 73, height: 41 });
    expect(locate(img, COLOURS.cyan)).toMatchObject({ x: 200, y: 200, width: 101, height: 31 });
    expect(clusters(img, COLOURS.magenta)).toHaveLength(1);
    expect(clusters(img, COLOURS.magenta, { minPixels: 1 })).toHaveLength(2);
    expect(locate(img, COLOURS.violet)).toBeNull();
    expect(centreOf(locate(img, COLOURS.magenta)!)).toEqual({ x: 73.5, y: 71.5 });
  });
  it('tolerates small colour differences (scaling, compression) but not other colours', () => {
    const near = scene(100, 100, [['#f804fa', 10, 10, 20, 20], ['#c000c0', 50, 50, 20, 20]]);
    expect(locate(near, COLOURS.magenta)).toMatchObject({ x: 10, y: 10, width: 20, height: 20 });
  });
  it('holes (text on a target) do not split it', () => {
    const t = scene(200, 100, [[COLOURS.green, 20, 20, 100, 40]]);
    fillRect(t, 40, 35, 60, 8, [0, 0, 0]);
    expect(locate(t, COLOURS.green)).toMatchObject({ x: 20, y: 20, width: 100, height: 40 });
  });
  it('thousandths round the centre to the image', () => {
    expect(toThousandths({ x: 173.5, y: 231.5 }, { width: 1280, height: 800 })).toEqual([136, 289]);
    expect(toThousandths({ x: 1280, y: 0 }, { width: 1280, height: 800 })).toEqual([999, 0]);
  });
});

// ---------------------------------------------------------------------------------------------
// Requests built by the real dialects

const DESKTOP: ShotGeometry = { imageWidth: 640, imageHeight: 400, viewport: { width: 640, height: 400 } };
const PHONE: ShotGeometry = { imageWidth: 412, imageHeight: 915, viewport: { width: 412, height: 915 } };

function ctxOf(shot: ShotGeometry, history: HistoryEntry[] = [], memory: DialectContext['memory'] = []): DialectContext {
  return { task: 'Click the magenta box', site: 'http://127.0.0.1:8000/', now: new Date(2025, 0, 2, 3, 4), history, memory, marks: [], shot, apps: [] };
}

function fakeHistory(n: number, action: string): HistoryEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    index: i, thought: `Step ${i} thought <|begin_of_box|>x<|end_of_box|>`, action, observation: i === 1 ? 'The element could not be found.' : 'Success',
    hasScreenshot: i !== n - 2, memory: [],
  }));
}

type PastImage = Extract<RequestPart, { type: 'image'; scale: number }>;

function bodyOf(parts: RequestPart[], current: string, past: (p: PastImage) => string): Record<string, unknown> {
  const images = parts.filter((p): p is Extract<RequestPart, { type: 'image' }> => p.type === 'image').map((p) => ('scale' in p ? past(p) : current));
  return { model: 'glm-4.5v', messages: toMessages(parts, images), temperature: 0.001, max_tokens: 8192, stream: true };
}

const desktopPng = pngDataUrl(scene(640, 400, [[COLOURS.magenta, 137, 111, 73, 41]]));
const phonePng = pngDataUrl(scene(412, 915, [[COLOURS.magenta, 37, 111, 73, 41]]));

describe('glm-pc request checks', () => {
  const build = (n: number) => bodyOf(glmPc.buildRequest(ctxOf(DESKTOP, fakeHistory(n, "left_click(start_box='[100, 200]')"), [{ k: 'v' }])), desktopPng, () => fakeJpeg(320, 200));

  it('accept the real dialect\'s requests: no history, a few steps, more than 4 (omitted ones)', () => {
    for (const n of [0, 1, 3, 7]) expect(checkRequestPC(build(n), `Bearer ${KEY}`, KEY), `history of ${n}`).toEqual([]);
  });

  it('parse the task, the steps, the memory and the current screenshot', () => {
    const p = parseRequestPC(build(7))!;
    expect(p.task).toBe('Click the magenta box');
    expect(p.steps.map((s) => s.n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(p.steps.map((s) => s.image)).toEqual([false, false, false, true, true, false, true]);
    expect(p.steps[0]).toMatchObject({ thought: 'Step 0 thought x', action: "left_click(start_box='[100, 200]')", observation: null });
    expect(p.steps[1].observation).toBe('The element could not be found.');
    expect(p.memory).toEqual([{ k: 'v' }]);
    expect(p.screenshot).toBe(desktopPng);
  });

  it('reject an element list, the web action space, the benchmark lines', () => {
    const good = build(2);
    const withText = (f: (t: string) => string) => {
      const b = structuredClone(good) as { messages: { content: { type: string; text?: string }[] }[] };
      const first = b.messages[0].content[0];
      first.text = f(first.text!);
      return b as unknown as Record<string, unknown>;
    };
    expect(checkRequestPC(withText((t) => t.replace('History:', 'History:\n[0]: <button> "OK";\t[1]: "Cancel";')), undefined, undefined).join('\n')).toMatch(/element list/);
    expect(checkRequestPC(withText((t) => `${t}\n    - Click [Numerical_Label].`), undefined, undefined).join('\n')).toMatch(/Numerical_Label/);
    const lastText = (f: (t: string) => string) => {
      const b = structuredClone(good) as { messages: { content: { type: string; text?: string }[] }[] };
      const parts = b.messages[0].content;
      const t = parts[parts.length - 2];
      t.text = f(t.text!);
      return b as unknown as Record<string, unknown>;
    };
    expect(checkRequestPC(lastText((t) => t.replace('\n\nCurrent Screenshot:', '\n- My computer\'s password is "password", feel free to use it when you need sudo rights.\n\nCurrent Screenshot:')), undefined, undefined).join('\n'))
      .toMatch(/benchmark line/);
    expect(checkRequestPC(lastText((t) => t.replace('\n\nCurrent Screenshot:\n', '\n')), undefined, undefined).join('\n')).toMatch(/Current Screenshot/);
  });

  it('reject wrong images, message shapes and sampling', () => {
    const wrongSize = bodyOf(glmPc.buildRequest(ctxOf(DESKTOP, fakeHistory(2, 'WAIT()'))), desktopPng, () => fakeJpeg(640, 400));
    expect(checkRequestPC(wrongSize, undefined, undefined).join('\n')).toMatch(/not half of the current 640x400/);
    const jpegCurrent = bodyOf(glmPc.buildRequest(ctxOf(DESKTOP)), fakeJpeg(640, 400), () => '');
    expect(checkRequestPC(jpegCurrent, undefined, undefined).join('\n')).toMatch(/not a PNG/);
    const b = build(0);
    expect(checkRequestPC({ ...b, temperature: 0.7 }, undefined, undefined).join('\n')).toMatch(/temperature/);
    expect(checkRequestPC({ ...b, max_tokens: undefined }, undefined, undefined).join('\n')).toMatch(/max_tokens/);
    const two = { ...b, messages: [...(b.messages as unknown[]), { role: 'assistant', content: 'x' }] };
    expect(checkRequestPC(two, undefined, undefined).join('\n')).toMatch(/exactly one message/);
    expect(checkRequestPC(b, 'Bearer nope', KEY).join('\n')).toMatch(/Authorization/);
    // the web dialect's request is not a pc request
    const web = record('glm-web', b, undefined, undefined);
    expect(web.pc).toBeNull();
    expect(record('glm-pc', b, undefined, undefined).violations).toEqual([]);
  });
});

describe('ui-tars request checks', () => {
  const history = (n: number) => fakeHistory(n, "click(start_box='(100,200)')").map((h) => ({ ...h, thought: `Step ${h.index}` }));
  // the earlier screenshots are kept ones, sent as JPEG (background/images.ts)
  const build = (n: number) => bodyOf(uiTars.buildRequest(ctxOf(DESKTOP, history(n))), desktopPng, () => fakeJpeg(320, 200));

  it('accept the real dialect\'s conversations and read task, steps, observations and the current screenshot', () => {
    for (const n of [0, 1, 3, 7]) expect(checkRequestUiTars(build(n), `Bearer ${KEY}`, KEY), `history of ${n}`).toEqual([]);
    const p = parseRequestUiTars(build(3))!;
    expect(p.task).toBe('Click the magenta box');
    expect(p.steps).toEqual([0, 1, 2].map((i) => ({ thought: `Step ${i}`, action: "click(start_box='(100,200)')" })));
    expect(p.observations).toEqual(['The element could not be found.']);
    expect(p.screenshot).toBe(desktopPng);
    const sent = [0, 1, 2].map((i) => `Thought: Step ${i}\nAction: click(start_box='(100,200)')`);
    expect(record('ui-tars', build(1), undefined, undefined, false, sent)).toMatchObject({ uiTars: { task: 'Click the magenta box' }, prompt: null, violations: [] });
  });

  it('check the assistant turns against the replies the server sent, as the SDK keeps them', () => {
    const wrote = "Reflection: it worked.\nThought: Step 0\nAction: click(start_box='<|box_start|>(100,200)<|box_end|>')";
    const entry = { index: 0, thought: 'Step 0', action: "click(start_box='(100,200)')", observation: 'Success', hasScreenshot: true };
    const asWritten = bodyOf(uiTars.buildRequest(ctxOf(DESKTOP, [{ ...entry, reply: wrote }])), desktopPng, () => fakeJpeg(320, 200));
    expect(checkRequestUiTars(asWritten, undefined, undefined, [wrote])).toEqual([]);
    // rebuilt from the parsed action (the box tokens gone): not what the model wrote
    const rebuilt = bodyOf(uiTars.buildRequest(ctxOf(DESKTOP, [entry])), desktopPng, () => fakeJpeg(320, 200));
    expect(checkRequestUiTars(rebuilt, undefined, undefined, [wrote]).join('\n')).toMatch(/not as the model wrote it/);
    // a server that sent nothing has no turn to find
    expect(checkRequestUiTars(asWritten, undefined, undefined, []).join('\n')).toMatch(/not as the model wrote it/);
  });

  it('reject another dialect\'s request, a JPEG, a system message, a wrong key', () => {
    expect(checkRequestUiTars(bodyOf(glmPc.buildRequest(ctxOf(DESKTOP)), desktopPng, () => desktopPng), undefined, undefined).join('\n')).toMatch(/SDK's prompt/);
    expect(checkRequestUiTars(build(0), undefined, undefined)).toEqual([]);
    expect(checkRequestUiTars(bodyOf(uiTars.buildRequest(ctxOf(DESKTOP)), fakeJpeg(640, 400), () => ''), undefined, undefined).join('\n')).toMatch(/not a PNG/);
    const b = build(0);
    const sys = { ...b, messages: [{ role: 'system', content: 'x' }, ...(b.messages as unknown[])] };
    expect(checkRequestUiTars(sys, undefined, undefined).join('\n')).toMatch(/system message/);
    expect(checkRequestUiTars(b, 'Bearer nope', KEY).join('\n')).toMatch(/Authorization/);
  });
});

describe('the fake model\'s dialect map (test/fixtures/dialects/index.ts)', () => {
  it('covers every registered dialect; an unknown dialect is an error, not glm-web', async () => {
    expect(Object.keys(DIALECT_FIXTURES).sort()).toEqual(Object.keys(DIALECTS).sort());
    expect(() => record('glm-tv' as DialectId, {}, undefined, undefined)).toThrow(/no dialect "glm-tv"/);
    await expect(startFakeModel({ dialect: 'glm-tv' as DialectId, policy: () => ({ content: '' }) })).rejects.toThrow(/no dialect/);
  });

  it('gives a request every dialect\'s parts, null but its own dialect\'s', () => {
    const rec = record('glm-mobile', { messages: [] }, undefined, undefined);
    for (const f of Object.values(DIALECT_FIXTURES)) for (const k of Object.keys(f.blank)) expect(rec).toHaveProperty(k, null);
    expect(rec.violations.length).toBeGreaterThan(0);
  });
});

describe('glm-mobile request checks', () => {
  const history: HistoryEntry[] = [
    { index: 0, thought: 'Tap it (plan: goal 1/2, part 1)', action: '{"action_type": "click", "box_2d": [[10,20,30,40]]}', observation: 'Success', hasScreenshot: true, memory: 'seen the box' },
    { index: 1, thought: 'Again', action: '{"action_type": "swipe", "direction": "up"}', observation: 'Not run: nothing there', hasScreenshot: true },
  ];
  const build = (h: HistoryEntry[] = history, png = phonePng) => bodyOf(glmMobile.buildRequest({ ...ctxOf(PHONE, h, 'seen the box') }), png, () => '');

  it('accept the real dialect\'s requests and parse them', () => {
    expect(checkRequestMobile(build([]), `Bearer ${KEY}`, KEY)).toEqual([]);
    expect(checkRequestMobile(build(), `Bearer ${KEY}`, KEY)).toEqual([]);
    const p = parseRequestMobile(build())!;
    expect(p.task).toBe('Click the magenta box');
    expect(p.steps).toEqual([
      { index: 0, memory: 'seen the box', reason: 'Tap it (plan: goal 1/2, part 1)', action: "{'action_type': 'click', 'box_2d': [[10, 20, 30, 40]]}", observation: null },
      { index: 1, memory: 'seen the box', reason: 'Again', action: "{'action_type': 'swipe', 'direction': 'up'}", observation: 'Not run: nothing there' },
    ]);
    expect(p.memory).toBe('seen the box');
    expect(p.screenshot).toBe(phonePng);
    expect(parseRequestMobile(build([]))!.memory).toBe('seen the box');
  });

  it('reject a desktop-sized screenshot, an element list, the benchmark lines, the image first', () => {
    expect(checkRequestMobile(build(history, desktopPng), undefined, undefined).join('\n')).toMatch(/640x400, not the phone's shape/);
    const b = build() as { messages: { content: { type: string; text?: string }[] }[] };
    const edit = (f: (t: string) => string) => {
      const c = structuredClone(b);
      c.messages[0].content[0].text = f(c.messages[0].content[0].text!);
      return c as unknown as Record<string, unknown>;
    };
    expect(checkRequestMobile(edit((t) => `${t}\n[0]: <a> "Home";`), undefined, undefined).join('\n')).toMatch(/element list/);
    expect(checkRequestMobile(edit((t) => `${t}\nFor the thunderbird account "anonym-x2024@outlook.com"`), undefined, undefined).join('\n')).toMatch(/benchmark line/);
    const swapped = structuredClone(b);
    swapped.messages[0].content.reverse();
    expect(checkRequestMobile(swapped as unknown as Record<string, unknown>, undefined, undefined).join('\n')).toMatch(/\[text, image\]/);
  });
});

// ---------------------------------------------------------------------------------------------
// The players, driven by the real dialects

interface Sim { actions: Action[]; steps: ParsedStep[]; requests: number }

/**
 * A tiny run loop: build the dialect's request on `screen()`, let the player answer, parse the
 * reply with the dialect, record the step as the run would (thought, action text, Success), until
 * the run would end or `limit` steps.
 */
function simulate(d: Dialect, shot: ShotGeometry, screen: (i: number) => Rgba, answer: (body: Record<string, unknown>) => { content: string; reasoning?: string }, limit = 12, observe?: (a: Action, i: number) => string): Sim {
  const history: HistoryEntry[] = [];
  let memory = d.emptyMemory();
  const actions: Action[] = [];
  const steps: ParsedStep[] = [];
  for (let i = 0; i < limit; i++) {
    const img = pngDataUrl(screen(i));
    const parts = d.buildRequest(ctxOf(shot, history, memory));
    const body = bodyOf(parts, img, (p) => fakeJpeg(Math.round(shot.imageWidth * p.scale), Math.round(shot.imageHeight * p.scale)));
    const r = answer(body);
    const parsed = d.parseReply(r.content, r.reasoning ?? null, shot);
    if (isParseError(parsed)) throw new Error(`step ${i}: the dialect could not read ${JSON.stringify(r.content)}: ${parsed.error}`);
    actions.push(parsed.action);
    steps.push(parsed);
    if (parsed.memory !== null) memory = parsed.memory;
    if (parsed.action.type === 'finish' || parsed.action.type === 'answer') break;
    history.push({ index: i, thought: parsed.thought, action: parsed.actionText, observation: observe?.(parsed.action, i) ?? 'Success', hasScreenshot: true, memory: parsed.memory ?? undefined });
  }
  return { actions, steps, requests: actions.length };
}

const near = (a: { x: number; y: number }, b: { x: number; y: number }, tol = 1.5) => Math.abs(a.x - b.x) <= tol && Math.abs(a.y - b.y) <= tol;

// Each player test draws its screenshots and finds colours in them: about 1-1.5 s alone.
describe('pc player', { timeout: cpuBudget(1500) }, () => {
  // A 1280x800 screenshot of a viewport of 1024x640 CSS px (125 % zoom): the mapping does the rest.
  const shot: ShotGeometry = { imageWidth: 1280, imageHeight: 800, viewport: { width: 1024, height: 640 } };
  const targets: Array<[string, number, number, number, number]> = [
    [COLOURS.magenta, 137, 211, 73, 41], [COLOURS.cyan, 101, 381, 767, 37], [COLOURS.orange, 129, 469, 91, 51], [COLOURS.blue, 710, 459, 448, 91],
  ];
  const page = scene(1280, 800, targets);
  const css = (x: number, y: number, w: number, h: number) => ({ x: (x + w / 2) * 0.8, y: (y + h / 2) * 0.8 });

  for (const variant of ['plain', 'glm', 'box-in-call', 'reasoning-field'] as ReplyVariant[]) {
    it(`every goal in the "${variant}" form reads as the intended action at the target`, () => {
      const goals: CoordGoal[] = [
        { do: 'click', colour: COLOURS.magenta },
        { do: 'type', colour: COLOURS.cyan, text: "it's done", enter: true },
        { do: 'drag', from: COLOURS.orange, to: COLOURS.blue },
        { do: 'scroll', direction: 'down' },
        { do: 'answer', text: '42.50 EUR' },
      ];
      const player = pcPlayer(goals, { variant });
      const sim = simulate(glmPc, shot, () => page, (body) => {
        expect(checkRequestPC(body, undefined, undefined)).toEqual([]);
        return player(parseRequestPC(body));
      });
      const a = sim.actions;
      expect(a.map((x) => x.type)).toEqual(['click', 'click', 'type', 'key', 'drag', 'scroll', 'finish']);
      const at = (x: Action) => (x as { target: { x: number; y: number } }).target;
      expect(near(at(a[0]), css(137, 211, 73, 41))).toBe(true);
      expect(near(at(a[1]), css(101, 381, 767, 37))).toBe(true);
      expect(a[2]).toEqual({ type: 'type', target: { kind: 'none' }, text: "it's done", clear: false, enter: false });
      expect(a[3]).toEqual({ type: 'key', keys: 'Enter' });
      expect(a[4].type === 'drag' && near(a[4].target as { x: number; y: number }, css(129, 469, 91, 51)) && near(a[4].to, css(710, 459, 448, 91))).toBe(true);
      expect(a[5]).toMatchObject({ type: 'scroll', direction: 'down', ticks: 5, target: { kind: 'point' } });
      expect(a[6]).toEqual({ type: 'finish', outcome: 'done', text: '42.50 EUR' });
      expect(sim.steps[0].thought).toMatch(/\(plan: goal 1\/5, part 1\)$/);
    });
  }

  it('searches by scrolling down when the colour is not on the screen, and clicks once it is', () => {
    const player = pcPlayer([{ do: 'click', colour: COLOURS.violet }, { do: 'fail', reason: 'Nothing more to do here.' }]);
    // the violet target comes into view (cut off at the bottom first) after two scrolls
    const screens = [scene(1280, 800, []), scene(1280, 800, [[COLOURS.violet, 400, 770, 83, 30]]), scene(1280, 800, [[COLOURS.violet, 400, 500, 83, 47]])];
    const sim = simulate(glmPc, shot, (i) => screens[Math.min(i, 2)], (body) => player(parseRequestPC(body)));
    expect(sim.actions.map((x) => x.type)).toEqual(['scroll', 'scroll', 'click', 'finish']);
    expect(sim.actions[0]).toMatchObject({ type: 'scroll', direction: 'down', ticks: 5 });
    expect(near((sim.actions[2] as { target: { x: number; y: number } }).target, css(400, 500, 83, 47))).toBe(true);
    expect(sim.actions[3]).toEqual({ type: 'finish', outcome: 'failed', text: 'Nothing more to do here.' });
  });

  it('does a step again when its observation says it failed, and gives up when the colour never shows', () => {
    const player = pcPlayer([{ do: 'click', colour: COLOURS.magenta }, { do: 'answer', text: 'ok' }]);
    const sim = simulate(glmPc, shot, () => page, (body) => player(parseRequestPC(body)), 12, (_, i) => (i === 0 ? 'The click could not be done.' : 'Success'));
    expect(sim.actions.map((x) => x.type)).toEqual(['click', 'click', 'finish']);
    const lost = pcPlayer([{ do: 'click', colour: COLOURS.violet }]);
    const gone = simulate(glmPc, shot, () => page, (body) => lost(parseRequestPC(body)), 20);
    expect(gone.actions.at(-1)).toMatchObject({ type: 'finish', outcome: 'failed' });
    expect(gone.actions.filter((x) => x.type === 'scroll').map((x) => (x as { direction: string }).direction).join(',')).toMatch(/^(down,){5}(up,)*up$/);
  });

  it('progress: plan notes of successful steps, searches counted since the last advance', () => {
    const goals: CoordGoal[] = [{ do: 'type', colour: COLOURS.cyan, text: 'x' }, { do: 'click', colour: COLOURS.magenta }];
    expect(progressOf([], goals, 'pc')).toEqual({ goal: 0, part: 0, searches: 0 });
    expect(progressOf([
      { thought: 'a (plan: goal 1/2, searching)', observation: null },
      { thought: 'b (plan: goal 1/2, part 1)', observation: null },
      { thought: 'c (plan: goal 1/2, part 2)', observation: 'Success (A coordinate was outside the screenshot.)' },
      { thought: 'd (plan: goal 2/2, searching)', observation: null },
    ], goals, 'pc')).toEqual({ goal: 1, part: 0, searches: 1 });
  });
});

describe('mobile player', { timeout: cpuBudget(1500) }, () => {
  // The phone screenshot at 412 px of a 412x915 viewport.
  const targets: Array<[string, number, number, number, number]> = [[COLOURS.magenta, 47, 137, 73, 41], [COLOURS.cyan, 33, 381, 247, 37], [COLOURS.green, 297, 171, 61, 45]];
  const page = scene(412, 915, targets);
  const centre = (x: number, y: number, w: number, h: number) => ({ x: x + w / 2, y: y + h / 2 });

  for (const variant of ['plain', 'glm', 'python-dict', 'reasoning-field', 'point-box'] as MobileVariant[]) {
    it(`every goal in the "${variant}" form reads as the intended action at the target`, () => {
      const goals: CoordGoal[] = [
        { do: 'click', colour: COLOURS.magenta },
        { do: 'type', colour: COLOURS.cyan, text: 'hello "phone"' },
        { do: 'scroll', colour: COLOURS.green, direction: 'down' },
        { do: 'answer', text: '42.50 EUR', colour: COLOURS.green },
      ];
      const player = mobilePlayer(goals, { variant });
      const sim = simulate(glmMobile, PHONE, () => page, (body) => {
        expect(checkRequestMobile(body, undefined, undefined)).toEqual([]);
        return player(parseRequestMobile(body));
      });
      const a = sim.actions;
      expect(a.map((x) => x.type)).toEqual(['click', 'type', 'scroll', 'reply', 'finish']);
      const at = (x: Action) => (x as { target: { x: number; y: number } }).target;
      expect(near(at(a[0]), centre(47, 137, 73, 41))).toBe(true);
      expect(a[1]).toMatchObject({ type: 'type', text: 'hello "phone"', clear: true, enter: true });
      expect(near(at(a[1]), centre(33, 381, 247, 37))).toBe(true);
      expect(a[2]).toMatchObject({ type: 'scroll', direction: 'down', target: { kind: 'point' } });
      expect(a[3]).toEqual({ type: 'reply', text: '42.50 EUR' });
      expect(a[4]).toEqual({ type: 'finish', outcome: 'done', text: '' });
      expect(sim.steps[0].thought).toMatch(/\(plan: goal 1\/4, part 1\)$/);
    });
  }

  it('swipes up (the content scrolls down) to find a colour, and ends infeasible on a fail goal', () => {
    const player = mobilePlayer([{ do: 'click', colour: COLOURS.violet }, { do: 'fail', reason: 'It cannot be done.' }]);
    const screens = [scene(412, 915, []), scene(412, 915, [[COLOURS.violet, 100, 500, 83, 47]])];
    const sim = simulate(glmMobile, PHONE, (i) => screens[Math.min(i, 1)], (body) => player(parseRequestMobile(body)));
    expect(sim.actions.map((x) => x.type)).toEqual(['scroll', 'click', 'finish']);
    expect(sim.actions[0]).toEqual({ type: 'scroll', target: { kind: 'window' }, direction: 'down' });
    expect(sim.actions[2]).toEqual({ type: 'finish', outcome: 'failed', text: 'It cannot be done.' });
  });
});
