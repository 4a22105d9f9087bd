/**
 * Act: run one action in the tab with trusted input (chrome.debugger), then
 * wait for the page to settle. The target is re-resolved in its own frame
 * first (it may have moved, changed or gone). Expected failures come back as
 * an error text for the model's next observation, never as an exception.
 */
import type { Action } from '../core/actions';
import type { Mark } from '../core/marks';
import type { ResolvedMark } from '../core/messages';
import type { ActResult, FrameOffsets } from '../core/run';
import * as cdp from './cdp';
import { sendContent } from './content';
import { toTop } from './label';
import { settle } from './settle';

const SETTLE_CAP_MS = 8_000;
const WAIT_MS = 5_000;

function whyNot(label: number, r: Extract<ResolvedMark, { ok: false }>): string {
  switch (r.reason) {
    case 'unknown-label': return `There is no element [${label}] on the page.`;
    case 'detached':
    case 'changed': return `The element [${label}] changed; labels were refreshed.`;
    case 'not-visible': return `The element [${label}] is no longer visible; labels were refreshed.`;
    case 'covered': return `The element [${label}] is covered by another element (${r.detail}); close it or pick another label.`;
  }
}

export interface ActOptions { searchStartPage: string }
interface Target { label: number; frameId: number; local: number; r: Extract<ResolvedMark, { ok: true }>; x: number; y: number }

async function target(tabId: number, mark: Mark | null, offsets: FrameOffsets | undefined, label: number): Promise<{ ok: true; t: Target } | { ok: false; error: string }> {
  if (!mark) return { ok: false, error: `There is no element [${label}] on the page.` };
  const frameId = mark.frameId ?? 0;
  const local = mark.localLabel ?? mark.label;
  const r = await sendContent(tabId, 'marks/resolve', { label: local }, frameId);
  if (!r.ok) return { ok: false, error: whyNot(label, r) };
  const { x, y } = toTop(mark, offsets, r.center);
  return { ok: true, t: { label, frameId, local, r, x, y } };
}

/** The action's input (trusted clicks and keys), without waiting for the page: see settleAfter. */
export async function actInput(tabId: number, action: Action, mark: Mark | null, offsets: FrameOffsets | undefined, opts: ActOptions): Promise<ActResult> {
  // The overlay must not be part of what the action touches or of the next screenshot.
  await sendContent(tabId, 'marks/hide', {}).catch(() => undefined);
  return perform(tabId, action, mark, offsets, opts);
}

/** Wait until the page has settled after the action (Wait: up to 5 s of quiet). */
export async function settleAfter(tabId: number, action: Action): Promise<void> {
  await settle(tabId, action.type === 'wait' ? WAIT_MS : SETTLE_CAP_MS);
}

/** Typing into a native <select> chooses the option whose text matches. */
async function chooseByText(tabId: number, t: Target, text: string): Promise<ActResult> {
  const r = await sendContent(tabId, 'select/choose', { label: t.local, text }, t.frameId);
  if (!r) return { ok: false, error: `The element [${t.label}] is not a select.` };
  if (!r.pick) return { ok: false, error: `No option of the select [${t.label}] matches "${text}"; its options are: ${r.options.slice(0, 30).join(', ')}.` };
  if (!r.pick.ok) return { ok: false, error: `Choosing "${r.pick.text}" did not take: the select's value is "${r.pick.actual}".` };
  return { ok: true };
}

/** An option of a rewritten <select>: click it, then verify that the choice took. */
async function clickOption(tabId: number, t: Target): Promise<ActResult> {
  const before = (await sendContent(tabId, 'select/last-pick', {}, t.frameId))?.seq ?? -1;
  await cdp.click(tabId, t.x, t.y);
  const pick = await sendContent(tabId, 'select/last-pick', {}, t.frameId);
  if (!pick || (pick.seq ?? -1) === before) return { ok: false, error: `Clicking the option [${t.label}] did not choose it; open the list again and retry.` };
  if (!pick.ok) {
    return { ok: false, error: pick.multiple
      ? `Toggling "${pick.text}" did not take: the selected values are now "${pick.actual}".`
      : `Choosing "${pick.text}" did not take: the select's value is "${pick.actual}", not "${pick.expected}".` };
  }
  return { ok: true };
}

async function perform(tabId: number, a: Action, mark: Mark | null, offsets: FrameOffsets | undefined, opts: ActOptions): Promise<ActResult> {
  switch (a.type) {
    case 'click': {
      const found = await target(tabId, mark, offsets, a.label);
      if (!found.ok) return found;
      if (found.t.r.tag === 'option') return clickOption(tabId, found.t);
      await cdp.click(tabId, found.t.x, found.t.y);
      return { ok: true };
    }
    case 'type': {
      const found = await target(tabId, mark, offsets, a.label);
      if (!found.ok) return found;
      const t = found.t;
      if (t.r.tag === 'select') return chooseByText(tabId, t, a.text);
      if (!t.r.editable) return { ok: false, error: `The element [${a.label}] is a <${t.r.tag}>, not a text field; nothing was typed.` };
      await cdp.click(tabId, t.x, t.y);
      await sendContent(tabId, 'marks/focus', { label: t.local }, t.frameId);
      await cdp.selectAll(tabId);
      await cdp.press(tabId, 'Delete');
      if (a.text) await cdp.insertText(tabId, a.text);
      await cdp.press(tabId, 'Enter');
      return { ok: true };
    }
    case 'scroll': {
      if (a.target.kind === 'window') {
        const { moved } = await sendContent(tabId, 'page/scroll', { direction: a.direction });
        return moved !== 0 ? { ok: true } : { ok: false, error: `The window did not scroll: it is already at the ${a.direction === 'down' ? 'bottom' : 'top'}.` };
      }
      const found = await target(tabId, mark, offsets, a.target.label);
      if (!found.ok) return found;
      if (mark?.scrollable) {
        // A scroll container: scroll it directly, and say so when it cannot move further.
        const r = await sendContent(tabId, 'marks/scroll', { label: found.t.local, direction: a.direction }, found.t.frameId);
        if (!r) return { ok: false, error: `The element [${a.target.label}] changed; labels were refreshed.` };
        return r.moved !== 0 ? { ok: true } : { ok: false, error: `The element [${a.target.label}] did not scroll: it is already at the ${a.direction === 'down' ? 'bottom' : 'top'}.` };
      }
      // Anything else: the wheel over it scrolls whatever scrolls there (WebVoyager: hover, then scroll).
      const dy = Math.max(40, Math.round((found.t.r.rect.height * 2) / 3)) * (a.direction === 'down' ? 1 : -1);
      await cdp.wheel(tabId, found.t.x, found.t.y, dy);
      return { ok: true };
    }
    case 'wait':
      return { ok: true };
    case 'goBack': {
      // Only back to a web page: going back to the tab's blank first page would end the run.
      const h = await cdp.send<{ currentIndex: number; entries: { id: number; url: string }[] }>(tabId, 'Page.getNavigationHistory');
      const prev = h.entries[h.currentIndex - 1];
      if (!prev || !/^https?:/i.test(prev.url)) return { ok: false, error: 'There is no previous web page to go back to.' };
      await cdp.send(tabId, 'Page.navigateToHistoryEntry', { entryId: prev.id });
      return { ok: true };
    }
    case 'search':
      await chrome.tabs.update(tabId, { url: opts.searchStartPage });
      return { ok: true };
    case 'key':
      await cdp.press(tabId, 'Enter');
      return { ok: true };
    case 'answer':
      return { ok: true };
  }
}
