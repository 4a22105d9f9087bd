/**
 * Select rewrite in real headless Chromium, driven by real mouse clicks and key presses, on
 * fixture pages (test/fixtures/pages/select/) that count the input/change events they see
 * (window.ev[selectId]). Served from one server under two origins: 127.0.0.1 and localhost.
 */
import { test, expect } from './fixtures';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { launchPlainChromium, serveFixtures } from './support';
import type { StaticServer } from '../../scripts/static-server';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { MarksSnapshot } from '../../src/core/marks';
import { injectLabeler } from './inject';

type RewriteApi = typeof import('../../content-scripts/select-rewrite');
type LabelerApi = typeof import('../../content-scripts/labeler/index');
interface Events { input: number; change: number; values: string[] }
declare global {
  interface Window { __selects: RewriteApi; ev: Record<string, Events>; deep: () => ShadowRoot; watch: (s: HTMLSelectElement) => void }
}

const ENTRY = fileURLToPath(new URL('../../content-scripts/select-rewrite.ts', import.meta.url));

let browser: Browser;
let server: StaticServer;
let base = '';
let context: BrowserContext | null = null;
let page: Page;
let errors: string[] = [];
let bundle: Promise<string> | null = null;

test.beforeAll(async () => {
  server = await serveFixtures('select');
  base = server.url;
  browser = await launchPlainChromium();
});

test.afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test.afterEach(async () => {
  expect(errors, 'page errors').toEqual([]);
  await context?.close();
  context = null;
});

/** The rewrite alone, as an IIFE exposing window.__selects. */
function rewriteBundle(): Promise<string> {
  bundle ??= build({ entryPoints: [ENTRY], bundle: true, format: 'iife', globalName: '__selects', write: false, target: 'chrome120', logLevel: 'silent' })
    .then((r) => r.outputFiles[0].text);
  return bundle;
}

async function addBundle(t: Page | Frame): Promise<void> {
  await t.addScriptTag({ content: await rewriteBundle() });
}

async function install(t: Page | Frame): Promise<void> {
  await addBundle(t);
  await t.evaluate(() => window.__selects.installSelectRewrite());
}

async function open(name: string, withRewrite = true): Promise<Page> {
  context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  page = await context.newPage();
  errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(base + name);
  if (withRewrite) await install(page);
  return page;
}

interface Item { text: string; disabled: boolean; selected: boolean; active: boolean; x: number; y: number; inView: boolean }
interface ListInfo {
  count: number; items: Item[]; groups: string[]; multi: boolean;
  host: { left: number; top: number; right: number; bottom: number; width: number };
  box: { scrollTop: number; scrollHeight: number; clientHeight: number; scrollWidth: number; clientWidth: number };
}

/** The open list in a document: its items (centre points in that frame's viewport), headers and geometry. */
function list(t: Page | Frame): Promise<ListInfo | null> {
  return t.evaluate(() => {
    const hosts = document.querySelectorAll('[data-wa-ui="select-list"]');
    const host = hosts[0];
    if (!host) return null;
    const box = host.shadowRoot!.querySelector<HTMLElement>('[role="listbox"]')!;
    const b = box.getBoundingClientRect();
    const items = Array.from(box.querySelectorAll('[role="option"]')).map((it) => {
      const r = it.getBoundingClientRect();
      return {
        text: it.textContent ?? '', disabled: it.getAttribute('aria-disabled') === 'true', selected: it.getAttribute('aria-selected') === 'true',
        active: it.classList.contains('active'), x: r.x + r.width / 2, y: r.y + r.height / 2, inView: r.top >= b.top && r.bottom <= b.bottom,
      };
    });
    const h = host.getBoundingClientRect();
    return {
      count: hosts.length, items, multi: box.getAttribute('aria-multiselectable') === 'true',
      groups: Array.from(box.querySelectorAll('.grp')).map((g) => `${g.textContent}${g.classList.contains('off') ? ' (off)' : ''}`),
      host: { left: h.left, top: h.top, right: h.right, bottom: h.bottom, width: h.width },
      box: { scrollTop: box.scrollTop, scrollHeight: box.scrollHeight, clientHeight: box.clientHeight, scrollWidth: box.scrollWidth, clientWidth: box.clientWidth },
    };
  });
}

const texts = async (t: Page | Frame) => (await list(t))?.items.map((i) => `${i.text}${i.disabled ? ' (disabled)' : ''}${i.selected ? ' *' : ''}`) ?? null;
const lists = (t: Page | Frame) => t.evaluate(() => document.querySelectorAll('[data-wa-ui="select-list"]').length);
const ev = (t: Page | Frame, id: string) => t.evaluate((i) => window.ev[i], id);
const value = (t: Page | Frame, sel: string) => t.locator(sel).evaluate((s: HTMLSelectElement) => (s.multiple ? Array.from(s.selectedOptions, (o) => o.value).join(',') : s.value));
const lastPick = (t: Page | Frame) => t.evaluate(() => window.__selects.lastSelectPick());

/** Real mouse click at the centre of an element (Playwright boxes are in the page's viewport, frames included). */
async function clickCentre(t: Page | Frame, selector: string): Promise<void> {
  const b = (await t.locator(selector).boundingBox())!;
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
}

/** Real mouse click on the list item with this text (offset by the frame's position for a child frame). */
async function clickItem(t: Page | Frame, text: string): Promise<void> {
  const item = (await list(t))!.items.find((i) => i.text === text);
  expect(item, `item "${text}"`).toBeTruthy();
  let dx = 0, dy = 0;
  if ('parentFrame' in t && t.parentFrame()) {
    const b = (await (await t.frameElement()).boundingBox())!;
    dx = b.x; dy = b.y;
  }
  await page.mouse.click(item!.x + dx, item!.y + dy);
}

test('optgroups shown as headers, disabled options greyed and not choosable, hidden ones left out', async () => {
  await open('groups.html');
  expect(await page.locator('select[data-wa-select="list"]').count()).toBe(3);
  await clickCentre(page, '#g');
  expect(await texts(page)).toEqual(['Choose… *', 'Soup', 'Salad (sold out) (disabled)', 'Steak (disabled)', 'Fish (disabled)', 'Cake', 'Pie']);
  expect((await list(page))!.groups).toEqual(['Starters', 'Closed kitchen (off)', 'Desserts']);
  // a header, a disabled option and an option of a disabled group: nothing happens, the list stays
  const header = await page.evaluate(() => {
    const r = document.querySelector('[data-wa-ui="select-list"]')!.shadowRoot!.querySelector('.grp')!.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  await page.mouse.click(header.x, header.y);
  await clickItem(page, 'Salad (sold out)');
  await clickItem(page, 'Steak');
  expect(await lists(page)).toBe(1);
  expect(await ev(page, 'g')).toEqual({ input: 0, change: 0, values: [] });
  await clickItem(page, 'Cake');
  expect(await value(page, '#g')).toBe('cake');
  expect(await ev(page, 'g')).toEqual({ input: 1, change: 1, values: ['cake'] });
  expect(await lists(page)).toBe(0);
  const first = (await lastPick(page))!;
  expect(first).toMatchObject({ ok: true, expected: 'cake', actual: 'cake', text: 'Cake', changed: true, multiple: false });
  // choosing the selected option again: no events (as natively), still a new, verified pick
  await clickCentre(page, '#g');
  await clickItem(page, 'Cake');
  expect(await ev(page, 'g')).toEqual({ input: 1, change: 1, values: ['cake'] });
  expect(await lastPick(page)).toMatchObject({ ok: true, changed: false, seq: first.seq + 1 });
  // by text: disabled and hidden options cannot be chosen
  const byText = (text: string) => page.evaluate((t) => window.__selects.chooseOptionByText(document.querySelector('#g')!, t), text);
  expect(await byText('Steak')).toEqual({ pick: null, options: ['Choose…', 'Soup', 'Cake', 'Pie'] });
  expect((await byText('secret menu')).pick).toBeNull();
  expect((await byText('pie')).pick).toMatchObject({ ok: true, actual: 'pie' });
  expect(await ev(page, 'g')).toEqual({ input: 2, change: 2, values: ['cake', 'pie'] });
  // ARIA comboboxes are not ours
  await clickCentre(page, '#combo');
  expect(await lists(page)).toBe(0);
});

test('verified: a page handler that resets the value makes the pick ok:false with the actual value', async () => {
  await open('groups.html');
  await clickCentre(page, '#r');
  await clickItem(page, 'B');
  expect(await ev(page, 'r')).toEqual({ input: 1, change: 1, values: ['b'] });
  expect(await value(page, '#r')).toBe('a');
  expect(await lastPick(page)).toMatchObject({ ok: false, expected: 'b', actual: 'a', changed: true });
  const r = await page.evaluate(() => window.__selects.chooseOptionByText(document.querySelector('#r')!, 'C'));
  expect(r.pick).toMatchObject({ ok: false, expected: 'c', actual: 'a' });
});

test('multiple: clicks toggle options, fire input+change each, the list stays open; by text adds', async () => {
  await open('multi.html');
  await clickCentre(page, '#m');
  expect(await value(page, '#m')).toBe('nuts');
  expect((await list(page))!.multi).toBe(true);
  expect(await texts(page)).toEqual(['Nuts *', 'Cream', 'Syrup', 'Gold leaf (disabled)', 'Fruit']);
  await clickItem(page, 'Cream');
  await clickItem(page, 'Syrup');
  await clickItem(page, 'Nuts');
  await clickItem(page, 'Gold leaf');
  expect(await ev(page, 'm')).toEqual({ input: 3, change: 3, values: ['nuts,cream', 'nuts,cream,syrup', 'cream,syrup'] });
  expect(await texts(page)).toEqual(['Nuts', 'Cream *', 'Syrup *', 'Gold leaf (disabled)', 'Fruit']);
  expect(await lastPick(page)).toMatchObject({ ok: true, multiple: true, selected: false, expected: 'nuts', actual: 'cream, syrup', changed: true });
  await page.mouse.click(900, 600);
  expect(await lists(page)).toBe(0);
  const byText = (text: string) => page.evaluate((t) => window.__selects.chooseOptionByText(document.querySelector('#m')!, t).pick, text);
  expect(await byText('fruit')).toMatchObject({ ok: true, selected: true, changed: true, actual: 'cream, syrup, fruit' });
  expect(await byText('Fruit')).toMatchObject({ ok: true, selected: true, changed: false });
  expect(await ev(page, 'm')).toEqual({ input: 4, change: 4, values: ['nuts,cream', 'nuts,cream,syrup', 'cream,syrup', 'cream,syrup,fruit'] });

  // keyboard: Space opens, arrows move, Enter and Space toggle, the list stays; Escape closes
  await page.focus('#m');
  await page.keyboard.press(' ');
  expect(await lists(page)).toBe(1);
  await page.keyboard.press('ArrowDown');
  expect((await list(page))!.items.find((i) => i.active)?.text).toBe('Syrup');
  await page.keyboard.press('Enter');
  expect(await value(page, '#m')).toBe('cream,fruit');
  await page.keyboard.press('ArrowDown');
  expect((await list(page))!.items.find((i) => i.active)?.text).toBe('Fruit');
  await page.keyboard.press(' ');
  expect(await value(page, '#m')).toBe('cream');
  expect(await lists(page)).toBe(1);
  await page.keyboard.press('Escape');
  expect(await lists(page)).toBe(0);
  expect((await ev(page, 'm')).change).toBe(6);

  // a single-choice listbox (size 3): a pick closes it
  await clickCentre(page, '#one');
  await clickItem(page, 'Z');
  expect(await value(page, '#one')).toBe('z');
  expect(await ev(page, 'one')).toEqual({ input: 1, change: 1, values: ['z'] });
  expect(await lists(page)).toBe(0);

  // verified after the page's handler: it drops Cream again
  await clickCentre(page, '#strict');
  await clickItem(page, 'Cream');
  expect(await ev(page, 'strict')).toEqual({ input: 1, change: 1, values: ['cream'] });
  expect(await lastPick(page)).toMatchObject({ ok: false, selected: true, expected: 'cream', actual: '' });
  expect(await texts(page)).toEqual(['Nuts', 'Cream']);
});

test('long lists: 60% of the viewport at most, scrolled to the selected option, above when no room below, inside the viewport', async () => {
  await open('long.html');
  await clickCentre(page, '#long');
  let l = (await list(page))!;
  const sel = (await page.locator('#long').boundingBox())!;
  expect(l.box.clientHeight).toBeLessThanOrEqual(0.6 * 720);
  expect(l.box.clientHeight).toBeGreaterThan(0.6 * 720 - 30);
  expect(l.box.scrollHeight).toBeGreaterThan(l.box.clientHeight * 5);
  expect(l.items.find((i) => i.selected)).toMatchObject({ text: 'Option 150', inView: true });
  expect(Math.abs(l.host.top - (sel.y + sel.height))).toBeLessThan(3);

  // the wheel scrolls the list; an option that came into view can be picked
  // (a wheel event sent while a loaded machine has not yet made the new list scrollable is lost: sent again until it scrolls)
  await page.mouse.move(l.host.left + 40, l.host.top + 100);
  await expect.poll(async () => {
    await page.mouse.wheel(0, 300);
    return (await list(page))!.box.scrollTop;
  }).toBeGreaterThan(l.box.scrollTop + 100);
  l = (await list(page))!;
  const target = l.items.filter((i) => i.inView).at(-2)!;
  await page.mouse.click(target.x, target.y);
  expect(await value(page, '#long')).toBe('v' + target.text.split(' ')[1]);
  expect(await ev(page, 'long')).toEqual({ input: 1, change: 1, values: ['v' + target.text.split(' ')[1]] });

  // the page scrolls: the list follows its select
  await clickCentre(page, '#long');
  await page.evaluate(() => window.scrollTo(0, 60));
  await expect.poll(async () => Math.round((await list(page))!.host.top)).toBe(Math.round((await page.locator('#long').boundingBox())!.y + sel.height + 1));

  // bottom right: opens above, kept inside the viewport, wide enough for its longest option
  await clickCentre(page, '#bottom');
  l = (await list(page))!;
  const b = (await page.locator('#bottom').boundingBox())!;
  expect(l.host.bottom).toBeLessThanOrEqual(b.y + 1);
  expect(l.host.right).toBeLessThanOrEqual(1280);
  expect(l.host.left).toBeGreaterThanOrEqual(0);
  expect(l.host.width).toBeGreaterThan(b.width * 2);
  expect(l.box.scrollWidth).toBeLessThanOrEqual(l.box.clientWidth);
  await clickItem(page, 'Third');
  expect(await ev(page, 'bottom')).toEqual({ input: 1, change: 1, values: ['t'] });
});

test('selects in shadow roots and selects added later (document, new shadow roots, observed roots)', async () => {
  await open('shadow.html');
  const tagOf = (js: string) => page.evaluate((code) => (new Function(`return ${code}`)() as Element).getAttribute('data-wa-select'), js);
  expect(await tagOf('deep().getElementById("colour")')).toBe('list');
  await clickCentre(page, '#colour');
  expect(await texts(page)).toEqual(['Red *', 'Green', 'Blue']);
  await clickItem(page, 'Blue');
  expect(await page.evaluate(() => window.deep().querySelector('select')!.value)).toBe('blue');
  expect(await ev(page, 'colour')).toEqual({ input: 1, change: 1, values: ['blue'] });

  // options replaced by page script while the list is open (inside a shadow root): rebuilt
  await clickCentre(page, '#colour');
  await page.evaluate(() => { window.deep().getElementById('colour')!.innerHTML = '<option value="c">Cyan</option><option value="m">Magenta</option>'; });
  await expect.poll(() => texts(page)).toEqual(['Cyan *', 'Magenta']);
  await clickItem(page, 'Magenta');
  expect(await ev(page, 'colour')).toEqual({ input: 2, change: 2, values: ['blue', 'm'] });

  await page.evaluate(() => {
    document.getElementById('later')!.innerHTML = '<select id="late1"><option>One</option><option>Two</option></select>';
    window.watch(document.getElementById('late1') as HTMLSelectElement);
    const host = document.createElement('x-late');
    host.attachShadow({ mode: 'open' }).innerHTML = '<select id="late2"><option>Alpha</option><option>Beta</option></select>';
    document.body.appendChild(host);
  });
  await expect.poll(() => tagOf('document.getElementById("late1")')).toBe('list');
  await expect.poll(() => tagOf('document.querySelector("x-late").shadowRoot.getElementById("late2")')).toBe('list');
  // a select added to a shadow root we already observe
  await page.evaluate(() => {
    document.querySelector('x-late')!.shadowRoot!.append(Object.assign(document.createElement('select'), { id: 'late3', innerHTML: '<option>Gamma</option><option>Delta</option>' }));
    window.watch(document.querySelector('x-late')!.shadowRoot!.getElementById('late3') as HTMLSelectElement);
  });
  await expect.poll(() => tagOf('document.querySelector("x-late").shadowRoot.getElementById("late3")')).toBe('list');
  await clickCentre(page, '#late1');
  await clickItem(page, 'Two');
  await clickCentre(page, '#late3');
  await clickItem(page, 'Delta');
  expect(await ev(page, 'late1')).toEqual({ input: 1, change: 1, values: ['Two'] });
  expect(await ev(page, 'late3')).toEqual({ input: 1, change: 1, values: ['Delta'] });

  // a shadow root attached to a present element gives no mutation: still works (events), tagged on the next install
  await page.evaluate(() => { document.querySelector('p')!.attachShadow({ mode: 'open' }).innerHTML = '<select id="late4"><option>Up</option><option>Down</option></select>'; });
  await clickCentre(page, '#late4');
  await clickItem(page, 'Down');
  expect(await page.evaluate(() => document.querySelector('p')!.shadowRoot!.querySelector('select')!.value)).toBe('Down');
  await page.evaluate(() => window.__selects.installSelectRewrite());
  expect(await tagOf('document.querySelector("p").shadowRoot.getElementById("late4")')).toBe('list');
});

test('options changed, select disabled or removed while the list is open; keyboard', async () => {
  await open('groups.html');
  await clickCentre(page, '#plain');
  await page.evaluate(() => { document.getElementById('plain')!.innerHTML = '<option value="4">Four</option><option value="5">Five</option>'; });
  await expect.poll(() => texts(page)).toEqual(['Four *', 'Five']);
  await page.evaluate(() => { (document.getElementById('plain') as HTMLSelectElement).add(new Option('Six', '6')); });
  await expect.poll(() => texts(page)).toEqual(['Four *', 'Five', 'Six']);
  await page.evaluate(() => { document.getElementById('plain')!.firstElementChild!.textContent = 'Vier'; });
  await expect.poll(() => texts(page)).toEqual(['Vier *', 'Five', 'Six']);
  await clickItem(page, 'Six');
  expect(await ev(page, 'plain')).toEqual({ input: 1, change: 1, values: ['6'] });
  await clickCentre(page, '#plain');
  await page.evaluate(() => { (document.getElementById('plain') as HTMLSelectElement).disabled = true; });
  await expect.poll(() => lists(page)).toBe(0);
  await page.evaluate(() => { (document.getElementById('plain') as HTMLSelectElement).disabled = false; });
  await clickCentre(page, '#plain');
  await page.evaluate(() => document.getElementById('plain')!.remove());
  await expect.poll(() => lists(page)).toBe(0);
  // disabled through its fieldset: closes, and no longer opens
  await page.evaluate(() => { const f = document.createElement('fieldset'); const r = document.getElementById('r')!; r.before(f); f.append(r); });
  await clickCentre(page, '#r');
  expect(await lists(page)).toBe(1);
  await page.evaluate(() => { document.querySelector('fieldset')!.disabled = true; });
  await expect.poll(() => lists(page)).toBe(0);
  await clickCentre(page, '#r');
  expect(await lists(page)).toBe(0);

  // keyboard: Enter opens, arrows skip disabled options, Enter picks; Space and ArrowDown open; Escape closes
  await page.focus('#g');
  await page.keyboard.press('Enter');
  expect(await lists(page)).toBe(1);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  expect((await list(page))!.items.find((i) => i.active)?.text).toBe('Cake');
  await page.keyboard.press('Enter');
  expect(await value(page, '#g')).toBe('cake');
  expect(await lists(page)).toBe(0);
  for (const key of [' ', 'ArrowDown']) {
    await page.keyboard.press(key);
    expect(await lists(page)).toBe(1);
    await page.keyboard.press('Escape');
    expect(await lists(page)).toBe(0);
  }
  expect(await ev(page, 'g')).toEqual({ input: 1, change: 1, values: ['cake'] });
});

test('hideSelectLists: nothing of ours is rendered (raw screenshot = no list), state kept; showSelectLists brings it back', async () => {
  await open('groups.html');
  await clickCentre(page, '#g');
  const shown = (await list(page))!;
  await page.evaluate(() => window.__selects.hideSelectLists());
  const visible = () => page.evaluate(() => {
    const hosts = Array.from(document.querySelectorAll('[data-wa-ui="select-list"]'));
    const inner = hosts.flatMap((h) => Array.from(h.shadowRoot!.querySelectorAll('*')));
    return [...hosts, ...inner].filter((e) => e.checkVisibility({ visibilityProperty: true, opacityProperty: true })).length;
  });
  expect(await visible()).toBe(0);
  const cake = shown.items.find((i) => i.text === 'Cake')!;
  expect(await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.hasAttribute('data-wa-ui'), [cake.x, cake.y])).toBe(false);
  expect(await page.evaluate(() => window.__selects.selectListOpen())).toBe(true);
  const hiddenShot = await page.screenshot();
  // rebuilt while hidden: stays hidden
  await page.evaluate(() => { (document.getElementById('g') as HTMLSelectElement).add(new Option('Tart', 'tart')); });
  await expect.poll(async () => (await texts(page))?.at(-1)).toBe('Tart');
  expect(await visible()).toBe(0);
  await page.evaluate(() => window.__selects.showSelectLists());
  expect(await visible()).toBeGreaterThan(5);
  expect((await page.screenshot()).equals(hiddenShot), 'the shown list is in a screenshot').toBe(false);
  await clickItem(page, 'Tart');
  expect(await ev(page, 'g')).toEqual({ input: 1, change: 1, values: ['tart'] });
  // the raw screenshot equals the page without the list
  await page.evaluate(() => { const g = document.getElementById('g') as HTMLSelectElement; g.value = 'none'; g.lastElementChild!.remove(); });
  expect((await page.screenshot()).equals(hiddenShot)).toBe(true);
});

test('removeSelectRewrite restores the page byte for byte (light DOM and shadow roots); only the pick remains', async () => {
  await open('shadow.html', false);
  await addBundle(page);
  const snapshot = () => page.evaluate(() => [
    document.documentElement.outerHTML, document.getElementById('xf')!.shadowRoot!.innerHTML, window.deep().innerHTML,
    ...Array.from(document.querySelectorAll('select'), (s) => s.value),
  ]);
  const before = await snapshot();
  await page.evaluate(() => window.__selects.installSelectRewrite());
  await clickCentre(page, '#colour');
  await clickItem(page, 'Green');
  await clickCentre(page, '#colour');
  await page.evaluate(() => window.__selects.hideSelectLists());
  expect(await lists(page)).toBe(1);
  await page.evaluate(() => window.__selects.removeSelectRewrite());
  expect(await snapshot()).toEqual(before);
  expect(await page.evaluate(() => window.deep().querySelector('select')!.value)).toBe('green');
  expect(await ev(page, 'colour')).toEqual({ input: 1, change: 1, values: ['green'] });
  // no listener left: a click is the page's own again (no list; the native popup is closed by Escape)
  await clickCentre(page, '#colour');
  expect(await lists(page)).toBe(0);
  await page.keyboard.press('Escape');
});

test('cross-origin iframe: the frame\'s own rewrite opens the list inside the frame and it works', async () => {
  await open('frame.html');
  const child = (await (await page.waitForSelector('#f')).contentFrame())!;
  // the frame starts as about:blank; wait for the other origin's page to have run its script
  await expect.poll(() => child.url()).toMatch(/^http:\/\/localhost:\d+\/child\.html$/);
  await child.waitForFunction(() => !!window.ev?.c);
  await install(child);
  await clickCentre(child, '#c');
  expect(await lists(child)).toBe(1);
  expect(await lists(page)).toBe(0);
  const l = (await list(child))!;
  expect(l.host.bottom).toBeLessThanOrEqual(300);
  expect(await texts(child)).toEqual(['Berlin *', 'Paris', 'Rome']);
  await clickItem(child, 'Rome');
  expect(await value(child, '#c')).toBe('rom');
  expect(await ev(child, 'c')).toEqual({ input: 1, change: 1, values: ['rom'] });
  expect(await child.evaluate(() => window.__selects.lastSelectPick())).toMatchObject({ ok: true, actual: 'rom' });
  // the parent's own select: the parent's list, in the parent
  // the parent's own select: its list opens in the parent, over the frame. Input over an
  // out-of-process frame is routed by hit-test data that lags a frame behind a list just drawn
  // there; the agent always screenshots between opening and clicking, and so does this test.
  await clickCentre(page, '#top');
  expect(await lists(page)).toBe(1);
  expect((await list(page))!.host.bottom).toBeGreaterThan((await page.locator('#f').boundingBox())!.y + 20);
  await page.screenshot();
  await clickItem(page, 'Parent two');
  expect(await value(page, '#top')).toBe('q');
});

test('with the labeler: options of an open multiple list get labels (enabled only); a click on a label toggles it', async () => {
  await open('multi.html', false);
  await injectLabeler(page);
  const lab = (name: keyof LabelerApi) => page.evaluate((n) => (window as unknown as { __labeler: Record<string, () => unknown> }).__labeler[n](), name);
  await lab('drawMarks');
  await lab('hideMarks');
  await clickCentre(page, '#m');
  const snap = await lab('drawMarks') as MarksSnapshot;
  const options = snap.marks.filter((m) => m.tag === 'option');
  expect(options.map((m) => m.text)).toEqual(['Nuts', 'Cream', 'Syrup', 'Fruit']);
  await lab('hideMarks');
  const fruit = options.find((m) => m.text === 'Fruit')!;
  await page.mouse.click(fruit.rect.x + fruit.rect.width / 2, fruit.rect.y + fruit.rect.height / 2);
  expect(await value(page, '#m')).toBe('nuts,fruit');
  expect(await ev(page, 'm')).toEqual({ input: 1, change: 1, values: ['nuts,fruit'] });
  expect(await lab('lastSelectPick')).toMatchObject({ ok: true, selected: true, expected: 'fruit' });
  await lab('resetMarks');
  expect(await page.locator('[data-wa-select], [data-wa-ui]').count()).toBe(0);
});
