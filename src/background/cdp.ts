/**
 * chrome.debugger adapter: trusted input and screenshots for the run's own
 * tab. Attaching shows Chrome's "is debugging this browser" bar; we attach
 * for the run and detach when it ends.
 */
const VERSION = '1.3';
const attached = new Set<number>();

chrome.debugger.onDetach.addListener((source) => {
  if (source.tabId !== undefined) attached.delete(source.tabId);
});

export async function attach(tabId: number): Promise<void> {
  if (attached.has(tabId)) return;
  try {
    await chrome.debugger.attach({ tabId }, VERSION);
  } catch (err) {
    // Already attached by us (e.g. after a worker restart): that is fine.
    if (!/already attached/i.test(String(err))) throw err;
  }
  attached.add(tabId);
}

export async function detach(tabId: number): Promise<void> {
  attached.delete(tabId);
  await chrome.debugger.detach({ tabId }).catch(() => undefined);
}

export async function send<T = unknown>(tabId: number, method: string, params?: Record<string, unknown>): Promise<T> {
  await attach(tabId);
  return (await chrome.debugger.sendCommand({ tabId }, method, params)) as T;
}

/**
 * The visible page at CSS-pixel size (device pixels scaled down when devicePixelRatio != 1):
 * PNG (what the model gets), or JPEG at `quality` (what the history keeps).
 */
export async function screenshot(tabId: number, css: { width: number; height: number; devicePixelRatio: number }, jpegQuality?: number) {
  const params: Record<string, unknown> = jpegQuality === undefined
    ? { format: 'png', captureBeyondViewport: false }
    : { format: 'jpeg', quality: jpegQuality, captureBeyondViewport: false };
  if (css.devicePixelRatio !== 1) {
    params.clip = { x: 0, y: 0, width: css.width, height: css.height, scale: 1 / css.devicePixelRatio };
  }
  const { data } = await send<{ data: string }>(tabId, 'Page.captureScreenshot', params);
  const bytes = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  const mime = jpegQuality === undefined ? 'image/png' : 'image/jpeg';
  return { dataUrl: `data:${mime};base64,${data}`, bytes, width: Math.round(css.width), height: Math.round(css.height) };
}

export async function click(tabId: number, x: number, y: number): Promise<void> {
  await send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
  await send(tabId, 'Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: 1 });
  await send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', buttons: 0, clickCount: 1 });
}

export async function wheel(tabId: number, x: number, y: number, deltaY: number): Promise<void> {
  await send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseWheel', x, y, deltaX: 0, deltaY });
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
