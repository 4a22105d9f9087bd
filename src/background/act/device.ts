/**
 * The run's tab as a phone (dialects trained on phone screenshots: glm-mobile), through CDP
 * emulation for as long as the debugger is attached (a detach clears it all):
 * 1. a 412 × 915 CSS px portrait screen at device pixel ratio 2.625, mobile (the page's viewport
 *    meta applies, as on a phone);
 * 2. touch (navigator.maxTouchPoints, pointer:coarse, touch events; act/ uses taps, touch long
 *    presses and finger drags then: emulatesTouch);
 * 3. Chrome for Android's user agent and client hints, with this browser's major version.
 * Not used: Emulation.setEmitTouchEventsForMouse: the next dispatched mouse press closed the page
 * target (Chromium 156, headless); we send touch events ourselves instead.
 * The page already loaded keeps what its server sent for the desktop user agent until it loads
 * again.
 */
import * as cdp from '../cdp';
import { phoneScale } from '../../core/phone-view';

export const PHONE = { width: 412, height: 915, deviceScaleFactor: 2.625 };

/** Tabs emulating a phone now (kept in memory: a restarted worker's run calls emulatePhone again). */
const phones = new Set<number>();

chrome.debugger.onDetach.addListener((source) => {
  if (source.tabId !== undefined) phones.delete(source.tabId);
});

function chromeMajor(): string {
  const brands = (navigator as Navigator & { userAgentData?: { brands?: Array<{ brand: string; version: string }> } }).userAgentData?.brands ?? [];
  const fromHints = brands.find((b) => /chrom/i.test(b.brand))?.version;
  return fromHints ?? /Chrom(?:e|ium)\/(\d+)/.exec(navigator.userAgent)?.[1] ?? '138';
}

/** Chrome for Android's reduced user agent (https://www.chromium.org/updates/ua-reduction/). */
export function phoneUserAgent(major = chromeMajor()): string {
  return `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`;
}

export function emulatesTouch(tabId: number): boolean {
  return phones.has(tabId);
}

export async function emulatePhone(tabId: number): Promise<void> {
  const major = chromeMajor();
  // the tab's size before the phone replaces it (a worker restarted mid-run finds the phone already there: drawn as it was)
  const before = phones.has(tabId) ? null : await cdp.send<{ cssLayoutViewport?: { clientWidth: number; clientHeight: number } }>(tabId, 'Page.getLayoutMetrics').catch(() => null);
  const vp = before?.cssLayoutViewport;
  // the whole phone in the window (core/phone-view.ts); input follows the drawn view (cdp.ts setViewScale).
  // Chrome draws it at the tab's top-left: a view position past the emulated screen's width (412 px,
  // the page's screen.width) is refused ("View position should be on the screen"), so it is not centred.
  const scale = phoneScale(vp && vp.clientWidth !== PHONE.width ? { width: vp.clientWidth, height: vp.clientHeight } : { width: 0, height: 0 }, PHONE);
  await cdp.send(tabId, 'Emulation.setDeviceMetricsOverride', {
    ...PHONE, mobile: true, screenWidth: PHONE.width, screenHeight: PHONE.height,
    screenOrientation: { type: 'portraitPrimary', angle: 0 },
    scale,
  });
  cdp.setViewScale(tabId, scale);
  await cdp.send(tabId, 'Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
  await cdp.send(tabId, 'Emulation.setUserAgentOverride', {
    userAgent: phoneUserAgent(major),
    platform: 'Linux armv81',
    userAgentMetadata: {
      brands: [{ brand: 'Chromium', version: major }, { brand: 'Google Chrome', version: major }, { brand: 'Not-A.Brand', version: '99' }],
      fullVersion: `${major}.0.0.0`,
      platform: 'Android', platformVersion: '10.0.0', architecture: '', model: 'K', mobile: true,
    },
  });
  phones.add(tabId);
}

/** Undo emulatePhone (also harmless on a tab that does not emulate). */
export async function restoreDevice(tabId: number): Promise<void> {
  phones.delete(tabId);
  cdp.setViewScale(tabId, null);
  await cdp.send(tabId, 'Emulation.clearDeviceMetricsOverride');
  await cdp.send(tabId, 'Emulation.setTouchEmulationEnabled', { enabled: false });
  // An empty user agent puts the browser's own back.
  await cdp.send(tabId, 'Emulation.setUserAgentOverride', { userAgent: '' });
}
