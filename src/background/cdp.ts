/**
 * chrome.debugger adapter: trusted input and screenshots for the run's own
 * tab. Attaching shows Chrome's "is debugging this browser" bar; we attach
 * for the run and detach when it ends.
 *
 * Input coordinates are CSS px of the top page's viewport: Input.dispatchMouseEvent applies the
 * page zoom and the device pixel ratio itself (checked at zoom 80 % / 125 % and DPR 1 / 2 / 2.625,
 * test/e2e/point-input.spec.ts).
 */
const VERSION = '1.3';
const attached = new Set<number>();

chrome.debugger.onDetach.addListener((source) => {
  if (source.tabId !== undefined) {
    attached.delete(source.tabId);
    viewScales.delete(source.tabId);
  }
});

/** The tabs attached now (a run's tabs). */
export function attachedTabs(): number[] {
  return [...attached];
}

export async function attach(tabId: number): Promise<void> {
  if (attached.has(tabId)) return;
  try {
    await chrome.debugger.attach({ tabId }, VERSION);
  } catch (err) {
    // Already attached by us (e.g. after a worker restart): that is fine.
    if (!/already attached/i.test(String(err))) throw err;
  }
  attached.add(tabId);
  // not awaited: a page held by a dialog answers no command that needs it (dialogs.ts unblockAtStart)
  void keepPace(tabId);
}

/**
 * A run's tab keeps its pace when it is not in front (another tab clicked, the window minimised).
 * Chromium hides such a tab from its page: requestAnimationFrame stops, IntersectionObserver
 * stays silent, timers run at most once a second (once a minute after 5 minutes hidden), so the
 * settle wait of every action grew from 0.3 s to about 1 s (measured: test/e2e/background.spec.ts,
 * `npm run bench`, part "background"). Focus emulation counts as a capturer that keeps the page
 * visible, the way casting a tab does, without bringing the tab to the front
 * (https://chromedevtools.github.io/devtools-protocol/tot/Emulation/#method-setFocusEmulationEnabled);
 * the page also believes it has the focus, as if the person were looking at it. It ends with our
 * debugger session. Screenshots need more: see captureFrame.
 */
async function keepPace(tabId: number): Promise<void> {
  await chrome.debugger.sendCommand({ tabId }, 'Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => undefined);
}

/**
 * Page.captureScreenshot of a tab that is not in front waits for a frame its window does not
 * paint: 0.2-0.7 s a shot even with the page kept visible (keepPace), and in a person's Chrome
 * sometimes minutes (without Playwright's CDPScreenshotNewSurface feature). A screencast asks
 * the tab for frames, so with one running for the duration of the capture a hidden tab is shot
 * as fast as one in front (measured 40-60 ms against 50-130 ms in front). Its tiny frames are
 * not used.
 */
async function captureFrame(tabId: number, params: Record<string, unknown>): Promise<{ data: string }> {
  const cast = await send(tabId, 'Page.startScreencast', { format: 'jpeg', quality: 1, maxWidth: 16, maxHeight: 16 }).then(() => true, () => false);
  try {
    return await send<{ data: string }>(tabId, 'Page.captureScreenshot', params);
  } finally {
    if (cast) await send(tabId, 'Page.stopScreencast').catch(() => undefined);
  }
}

export async function detach(tabId: number): Promise<void> {
  attached.delete(tabId);
  await chrome.debugger.detach({ tabId }).catch(() => undefined);
}

/**
 * Tabs whose page is drawn scaled in the window (a phone fitted to the window's height,
 * act/device.ts): Chrome then reads dispatched input in the drawn view's pixels, so a point in CSS
 * px of the page is sent multiplied by the scale. Cleared with the emulation and on detach.
 */
const viewScales = new Map<number, number>();

export function setViewScale(tabId: number, scale: number | null): void {
  if (scale === null || scale === 1) viewScales.delete(tabId);
  else viewScales.set(tabId, scale);
}

/** Input parameters with their points in the drawn view's pixels (viewScales). */
function inView(tabId: number, method: string, params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const k = viewScales.get(tabId);
  if (!k || !params || !method.startsWith('Input.dispatch')) return params;
  const out: Record<string, unknown> = { ...params };
  if (typeof params.x === 'number') out.x = params.x * k;
  if (typeof params.y === 'number') out.y = params.y * k;
  if (Array.isArray(params.touchPoints)) out.touchPoints = (params.touchPoints as Array<{ x: number; y: number }>).map((p) => ({ ...p, x: p.x * k, y: p.y * k }));
  return out;
}

export async function send<T = unknown>(tabId: number, method: string, params?: Record<string, unknown>): Promise<T> {
  await attach(tabId);
  return (await chrome.debugger.sendCommand({ tabId }, method, inView(tabId, method, params))) as T;
}

/**
 * The visible page at CSS-pixel size (device pixels scaled down when devicePixelRatio != 1):
 * PNG, or `format.mime` (JPEG or WebP) at `format.quality`, encoded by the browser.
 *
 * `opts.fast`: encoded for speed, not size (see below).
 *
 * A page wider than a phone's screen (act/device.ts) is shown zoomed out (visual viewport scale
 * < 1, e.g. 0.25: innerWidth 1648 CSS px on a 412 px screen); it is captured at the screen's
 * size, not its CSS size: `width`/`height` are the image's (CSS px = image px / pageScale).
 */
export async function screenshot(tabId: number, css: { width: number; height: number; devicePixelRatio: number }, format?: { mime: 'image/jpeg' | 'image/webp'; quality: number }, opts: { fast?: boolean } = {}) {
  const params: Record<string, unknown> = format === undefined
    ? { format: 'png', captureBeyondViewport: false }
    : { format: format.mime.slice('image/'.length), quality: format.quality, captureBeyondViewport: false };
  // `fast`: the browser's quickest encoding (a PNG compressed less: the same pixels, about 20 %
  // more bytes), for a capture that is decoded at once and never sent as it is (observe.ts)
  if (opts.fast) params.optimizeForSpeed = true;
  type Metrics = { cssVisualViewport?: { scale?: number; pageX?: number; pageY?: number } };
  // At DPR 1 (a desktop at 100 %) the page is captured as it is: no metrics needed (no pinch zoom).
  const metrics = css.devicePixelRatio === 1 ? null : await send<Metrics>(tabId, 'Page.getLayoutMetrics').catch(() => null);
  const vv = metrics?.cssVisualViewport;
  const pageScale = Math.min(1, vv?.scale || 1);
  if (css.devicePixelRatio !== 1 || pageScale !== 1) {
    // The clip is in the page's coordinates (scrolled: the visual viewport's page offset), in
    // device-independent px, which page zoom makes larger than CSS px; scale brings the image
    // down to one pixel per CSS px. Verified at DPR 2, at 125 % zoom and on the emulated phone
    // (test/e2e/dialects.spec.ts): a clip at (0, 0) went blank once the page scrolled, and a clip
    // in CSS px cut a zoomed page short.
    const zoom = await zoomOf(tabId);
    params.clip = {
      x: (vv?.pageX ?? 0) * zoom, y: (vv?.pageY ?? 0) * zoom,
      width: css.width * zoom, height: css.height * zoom, scale: pageScale / css.devicePixelRatio,
    };
  }
  const { data } = await captureFrame(tabId, params);
  const bytes = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  const mime = format === undefined ? 'image/png' : format.mime;
  // A PNG's own size, so the model's coordinates are mapped against what it really saw (the
  // phone at a page zoom other than 100 % comes out larger than its CSS size).
  const size = pngSize(data) ?? { width: Math.round(css.width * pageScale), height: Math.round(css.height * pageScale) };
  return { dataUrl: `data:${mime};base64,${data}`, bytes, ...size };
}

/**
 * A part of the visible page (a box in top-page viewport CSS px) as a PNG data URL, drawn at
 * `scale` image px per CSS px (small words read better by OCR when enlarged). The clip is in the
 * page's coordinates (scrolled) and device-independent px, as in screenshot above.
 */
export async function capturePart(tabId: number, box: { x: number; y: number; width: number; height: number }, scale = 2): Promise<string> {
  type Metrics = { cssVisualViewport?: { pageX?: number; pageY?: number } };
  const vv = (await send<Metrics>(tabId, 'Page.getLayoutMetrics').catch(() => null))?.cssVisualViewport;
  const zoom = await zoomOf(tabId);
  const clip = { x: ((vv?.pageX ?? 0) + box.x) * zoom, y: ((vv?.pageY ?? 0) + box.y) * zoom, width: box.width * zoom, height: box.height * zoom, scale: scale / zoom };
  const { data } = await captureFrame(tabId, { format: 'png', captureBeyondViewport: false, clip });
  return `data:image/png;base64,${data}`;
}

/** Width and height from a base64 PNG's IHDR (bytes 16–23), or null for anything else. */
function pngSize(base64: string): { width: number; height: number } | null {
  const head = atob(base64.slice(0, 32));
  if (head.length < 24 || head.charCodeAt(1) !== 0x50 || head.charCodeAt(2) !== 0x4e || head.charCodeAt(3) !== 0x47) return null;
  const u32 = (i: number) => ((head.charCodeAt(i) << 24) | (head.charCodeAt(i + 1) << 16) | (head.charCodeAt(i + 2) << 8) | head.charCodeAt(i + 3)) >>> 0;
  return { width: u32(16), height: u32(20) };
}

export type Button = 'left' | 'right' | 'middle';
/** `buttons` bitmask of a held button (MouseEvent.buttons) */
const BUTTON_BITS: Record<Button, number> = { left: 1, right: 2, middle: 4 };

function mouse(tabId: number, params: Record<string, unknown>): Promise<unknown> {
  return send(tabId, 'Input.dispatchMouseEvent', params);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Move the mouse to (x, y) (CSS px of the top viewport; CDP applies page zoom itself). */
export async function move(tabId: number, x: number, y: number): Promise<void> {
  await mouse(tabId, { type: 'mouseMoved', x, y });
}

/**
 * Asked after the pointer arrived and just before each press (`n`: 1, then 2 for a double
 * click's second): a reason not to press (the element under the pointer is not what was judged),
 * or null. The run's act judges the element there again (run/act.ts pressCheck).
 */
export type BeforePress = (x: number, y: number, n: number) => Promise<string | null>;

/**
 * A click; `count` 2: a double click sent as a real mouse does, two press/release pairs with
 * clickCount 1 then 2 (the page sees click, click, dblclick). Returns why a press was not made
 * (`beforePress`), or null when every press was.
 */
export async function click(tabId: number, x: number, y: number, opts: { button?: Button; count?: number; beforePress?: BeforePress } = {}): Promise<string | null> {
  const button = opts.button ?? 'left';
  await move(tabId, x, y);
  for (let n = 1; n <= (opts.count ?? 1); n++) {
    const no = opts.beforePress ? await opts.beforePress(x, y, n) : null;
    if (no) return no;
    await mouse(tabId, { type: 'mousePressed', x, y, button, buttons: BUTTON_BITS[button], clickCount: n });
    await mouse(tabId, { type: 'mouseReleased', x, y, button, buttons: 0, clickCount: n });
  }
  return null;
}

/** Press the left button at (x, y), hold it for `ms`, release (a long press with a mouse); why it was not pressed, or null. */
export async function hold(tabId: number, x: number, y: number, ms: number, beforePress?: BeforePress): Promise<string | null> {
  await move(tabId, x, y);
  const no = beforePress ? await beforePress(x, y, 1) : null;
  if (no) return no;
  await mouse(tabId, { type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: 1 });
  await sleep(ms);
  await mouse(tabId, { type: 'mouseReleased', x, y, button: 'left', buttons: 0, clickCount: 1 });
  return null;
}

/** Wheel notches at (x, y): deltaY > 0 scrolls down, deltaX > 0 right (CSS px). */
export async function wheel(tabId: number, x: number, y: number, deltaY: number, deltaX = 0): Promise<void> {
  await mouse(tabId, { type: 'mouseWheel', x, y, deltaX, deltaY });
}

/**
 * Under page zoom, touch input sent through CDP reaches no element in Chromium 156 (a tap at any
 * scaling of the point produced no click: test/e2e/dialects.spec.ts, 125 % zoom on the phone),
 * while mouse input is placed right. So touch is used only at 100 %; a mouse press stands in else.
 */
async function touchWorks(tabId: number): Promise<boolean> {
  return (await zoomOf(tabId)) === 1;
}

/** The tab's page zoom (1 when it cannot be read). */
async function zoomOf(tabId: number): Promise<number> {
  try {
    return (await chrome.tabs.getZoom(tabId)) || 1;
  } catch {
    return 1;
  }
}

/** A tap, or a touch held for `ms` (a long press), where the tab emulates touch (act/device.ts). */
export async function touch(tabId: number, x: number, y: number, ms = 0, beforePress?: BeforePress): Promise<string | null> {
  if (!(await touchWorks(tabId))) return ms > 0 ? hold(tabId, x, y, ms, beforePress) : click(tabId, x, y, { beforePress });
  const no = beforePress ? await beforePress(x, y, 1) : null;
  if (no) return no;
  await send(tabId, 'Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  // A finger arrives with its press: what the page swapped in on pointerenter or pointerdown is
  // judged before the finger lifts (the lift makes the click); a change is cancelled, not tapped.
  const then = beforePress ? await beforePress(x, y, 1) : null;
  if (then) {
    await send(tabId, 'Input.dispatchTouchEvent', { type: 'touchCancel', touchPoints: [] });
    return then;
  }
  if (ms > 0) await sleep(ms);
  await send(tabId, 'Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  return null;
}

export interface Point { x: number; y: number }

/** Points from `from` to `to`, `steps` of them, the last one `to`. */
function path(from: Point, to: Point, steps: number): Point[] {
  return Array.from({ length: steps }, (_, i) => ({ x: from.x + ((to.x - from.x) * (i + 1)) / steps, y: from.y + ((to.y - from.y) * (i + 1)) / steps }));
}

/** A finger drag (touch emulation): the page scrolls with it as on a phone. */
export async function touchDrag(tabId: number, from: Point, to: Point, steps = 10): Promise<void> {
  if (!(await touchWorks(tabId))) {
    await drag(tabId, from, to);
    return;
  }
  await send(tabId, 'Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  for (const p of path(from, to, steps)) await send(tabId, 'Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
  await send(tabId, 'Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** Watches for the page starting an HTML5 drag in this tab (with interception on): its drag data. */
function watchDrags(tabId: number) {
  let data: unknown = null;
  let wake: (() => void) | null = null;
  const listener = (source: chrome.debugger.Debuggee, method: string, params?: object) => {
    if (source.tabId !== tabId || method !== 'Input.dragIntercepted') return;
    data = (params as { data?: unknown } | undefined)?.data ?? null;
    wake?.();
  };
  chrome.debugger.onEvent.addListener(listener);
  return {
    data: () => data,
    /** resolves when a drag has started, or after `ms` */
    wait: (ms: number) => new Promise<void>((resolve) => {
      if (data !== null) return resolve();
      const timer = setTimeout(resolve, ms);
      wake = () => { clearTimeout(timer); resolve(); };
    }),
    stop: () => chrome.debugger.onEvent.removeListener(listener),
  };
}

/**
 * A mouse drag with the left button: press at `from`, move in `steps` to `to`, release.
 *
 * HTML5 drag and drop (draggable=true) does not start from dispatched mouse events the way a
 * page needs: Chromium begins a native (OS) drag session that CDP mouse events do not feed, and
 * on some platforms that session holds the mouse. So drags are intercepted
 * (Input.setInterceptDrags, https://chromedevtools.github.io/devtools-protocol/tot/Input/#method-setInterceptDrags):
 * when the page starts one, Chromium emits Input.dragIntercepted with the drag data, and we play
 * the rest as drag events (Input.dispatchDragEvent dragEnter / dragOver / drop) before the
 * release. A plain mouse drag (sliders, canvases, sortable lists on mouse events) never starts
 * one and stays mouse events all along.
 * Returns whether an HTML5 drag took place.
 */
export async function drag(tabId: number, from: Point, to: Point, steps = 10): Promise<boolean> {
  const intercept = await send(tabId, 'Input.setInterceptDrags', { enabled: true }).then(() => true, () => false);
  const drags = intercept ? watchDrags(tabId) : null;
  let data: unknown = null;
  let entered = false;
  const dragEvent = (type: string, p: Point) => send(tabId, 'Input.dispatchDragEvent', { type, x: p.x, y: p.y, data, modifiers: 0 });
  try {
    await move(tabId, from.x, from.y);
    await mouse(tabId, { type: 'mousePressed', x: from.x, y: from.y, button: 'left', buttons: 1, clickCount: 1 });
    for (const p of path(from, to, steps)) {
      if (data === null) await mouse(tabId, { type: 'mouseMoved', x: p.x, y: p.y, button: 'left', buttons: 1 });
      else {
        await dragEvent(entered ? 'dragOver' : 'dragEnter', p);
        entered = true;
      }
      data = drags?.data() ?? null;
    }
    if (drags && data === null) {
      // The drag may start with the last move: give its event a moment to arrive.
      await drags.wait(100);
      data = drags.data();
    }
    if (data !== null) {
      if (!entered) await dragEvent('dragEnter', to);
      await dragEvent('dragOver', to);
      await dragEvent('drop', to);
    }
    await mouse(tabId, { type: 'mouseReleased', x: to.x, y: to.y, button: 'left', buttons: 0, clickCount: 1 });
    return data !== null;
  } catch (err) {
    if (data !== null) await dragEvent('dragCancel', to).catch(() => undefined);
    await mouse(tabId, { type: 'mouseReleased', x: to.x, y: to.y, button: 'left', buttons: 0, clickCount: 1 }).catch(() => undefined);
    throw err;
  } finally {
    drags?.stop();
    if (intercept) await send(tabId, 'Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
  }
}

const KEYS = {
  Enter: { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' },
  Delete: { key: 'Delete', code: 'Delete', windowsVirtualKeyCode: 46 },
} as const;

export async function press(tabId: number, name: keyof typeof KEYS): Promise<void> {
  const k = KEYS[name];
  await send(tabId, 'Input.dispatchKeyEvent', { type: 'text' in k ? 'keyDown' : 'rawKeyDown', ...k });
  await send(tabId, 'Input.dispatchKeyEvent', { type: 'keyUp', key: k.key, code: k.code, windowsVirtualKeyCode: k.windowsVirtualKeyCode });
}

/** Select all text in the focused field (Ctrl+A with the editing command, so it works on every platform). */
export async function selectAll(tabId: number): Promise<void> {
  const base = { key: 'a', code: 'KeyA', windowsVirtualKeyCode: 65, modifiers: 2 };
  await send(tabId, 'Input.dispatchKeyEvent', { type: 'rawKeyDown', ...base, commands: ['selectAll'] });
  await send(tabId, 'Input.dispatchKeyEvent', { type: 'keyUp', ...base });
}

export async function insertText(tabId: number, text: string): Promise<void> {
  await send(tabId, 'Input.insertText', { text });
}

/** Key events as act/keys.ts builds them (Input.dispatchKeyEvent parameters), in order. */
export async function keyEvents(tabId: number, events: Record<string, unknown>[]): Promise<void> {
  for (const e of events) await send(tabId, 'Input.dispatchKeyEvent', e);
}
