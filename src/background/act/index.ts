/**
 * Act: run one action in the tab with trusted input (chrome.debugger), then wait for what it set
 * going in the page (settleAfter: a navigation, requests, a changing page; nothing when nothing
 * happened; a Wait waits its time). Targets: a label (re-resolved in its own frame first: act/label.ts), a
 * point of the top page (CSS px; act/point.ts finds what is there), the window, or none.
 * Expected failures come back as an error text for the model's next observation, never as an
 * exception; `note` adds a remark for it to a success. Both are the model's words: English.
 *
 * A tab emulating a phone (act/device.ts) is touched instead of clicked: a tap for a left click
 * at a point, a held touch for a long press, a finger drag for a drag.
 */
import type { Action, MouseButton, Point, Target } from '../../core/action/action';
import * as cdp from '../cdp';
import { sendContent } from '../content';
import { settle, settleAction, watchAction, type ActionWatch } from '../settle';
import { lookMs, WAIT_MS } from '../../core/settle';
import { emulatesTouch } from './device';
import { preferFiles } from './files';
import { clickLabel, resolveLabel, scrollLabel, typeLabel, type LabelTarget } from './label';
import { historyStep, openApp, openUrl, pressKeys } from './navigate';
import { scrollWindowByWheel, wheelAt, wheelToEnd } from './scroll';
import { lastCopied } from '../clipboard';
import { typeAt, typeFocused } from './type';
import type { ActContext, ActResult } from './types';

export type { ActContext, ActResult, FrameOffsets } from './types';

const SETTLE_CAP_MS = 8_000;
const LONG_PRESS_MS = 800;
/** a watch whose settleAfter never came (the input failed, or stopped at a dialog) ends after this */
const WATCH_UNCLAIMED_MS = 60_000;

/** tab -> what its last action's input set going, watched from before the input until settleAfter */
const watches = new Map<number, { watch: ActionWatch; timer: ReturnType<typeof setTimeout> }>();

function dropWatch(tabId: number): ActionWatch | null {
  const w = watches.get(tabId);
  if (!w) return null;
  watches.delete(tabId);
  clearTimeout(w.timer);
  return w.watch;
}

/** The action's input (trusted clicks and keys), without waiting for the page: see settleAfter. */
export async function actInput(tabId: number, action: Action, ctx: ActContext): Promise<ActResult> {
  dropWatch(tabId)?.stop();
  // The overlay (labels, the approval crosshair) must not be part of what the action touches or of
  // the next screenshot; what the input sets going is watched from before it.
  const [watch] = await Promise.all([
    action.type === 'wait' ? null : watchAction(tabId).catch(() => null),
    sendContent(tabId, 'marks/hide', {}).catch(() => undefined),
  ]);
  if (watch) watches.set(tabId, { watch, timer: setTimeout(() => dropWatch(tabId)?.stop(), WATCH_UNCLAIMED_MS) });
  // Typing into a file field chooses the attached files its text names (act/files.ts).
  if (action.type === 'type') preferFiles(tabId, action.text);
  return perform(tabId, action, ctx);
}

/**
 * After the action's input: until what it set going has ended (settle.ts settleAction), at most
 * SETTLE_CAP_MS; at once when nothing did. `Wait`: WAIT_MS, the wait the model asked for (the
 * observation after it waits for the page a person would see, as after any action).
 */
export async function settleAfter(tabId: number, action: Action): Promise<void> {
  const watch = dropWatch(tabId);
  if (action.type === 'wait') {
    watch?.stop();
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
    return;
  }
  // no watch (a restart between the input and this): what the input began is not known
  if (!watch) return settle(tabId, SETTLE_CAP_MS);
  await settleAction(watch, SETTLE_CAP_MS, lookMs(action.type));
}

/** The page's visible text in the action's box (content-scripts/quote.ts), into its variable. */
async function quote(tabId: number, a: Extract<Action, { type: 'quote' }>): Promise<ActResult> {
  const q = await sendContent(tabId, 'page/quote', { box: a.box, all: a.all });
  const notes: string[] = [];
  if (!q.text) notes.push('There is no visible text in that box.');
  if (a.all) notes.push(q.capped ? `Scrolled ${q.pages - 1} times and stopped before the end (too long).` : `Scrolled ${q.pages - 1} times, to the end.`);
  return { ok: true, set: { name: a.output, value: q.text }, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

type Where = { ok: true; p: Point; label: LabelTarget | null } | { ok: false; error: string };

/** A label's fresh centre or a point: where a pointer action goes. */
async function whereTo(tabId: number, target: Target, ctx: ActContext, what: string): Promise<Where> {
  if (target.kind === 'point') return { ok: true, p: { x: target.x, y: target.y }, label: null };
  if (target.kind === 'label') {
    const found = await resolveLabel(tabId, ctx.mark, ctx.frameOffsets, target.label);
    return found.ok ? { ok: true, p: { x: found.t.x, y: found.t.y }, label: found.t } : found;
  }
  return { ok: false, error: `${what} needs an element or a point to act on.` };
}

async function click(tabId: number, target: Target, button: MouseButton, count: number, ctx: ActContext): Promise<ActResult> {
  const w = await whereTo(tabId, target, ctx, 'A click');
  if (!w.ok) return w;
  if (w.label) return clickLabel(tabId, w.label, button, count, ctx.beforePress);
  // On a phone a finger taps: touch events, then the click the page derives from them.
  const no = emulatesTouch(tabId) && button === 'left' && count === 1
    ? await cdp.touch(tabId, w.p.x, w.p.y, 0, ctx.beforePress)
    : await cdp.click(tabId, w.p.x, w.p.y, { button, count, beforePress: ctx.beforePress });
  return no ? { ok: false, error: no } : { ok: true };
}

async function perform(tabId: number, a: Action, ctx: ActContext): Promise<ActResult> {
  switch (a.type) {
    case 'click':
      return click(tabId, a.target, a.button, a.count, ctx);
    case 'hover': {
      const w = await whereTo(tabId, a.target, ctx, 'Hovering');
      if (!w.ok) return w;
      await cdp.move(tabId, w.p.x, w.p.y);
      return { ok: true };
    }
    case 'press': {
      const w = await whereTo(tabId, a.target, ctx, 'A long press');
      if (!w.ok) return w;
      const no = emulatesTouch(tabId) ? await cdp.touch(tabId, w.p.x, w.p.y, LONG_PRESS_MS, ctx.beforePress) : await cdp.hold(tabId, w.p.x, w.p.y, LONG_PRESS_MS, ctx.beforePress);
      return no ? { ok: false, error: no } : { ok: true };
    }
    case 'drag': {
      const w = await whereTo(tabId, a.target, ctx, 'A drag');
      if (!w.ok) return w;
      if (emulatesTouch(tabId)) await cdp.touchDrag(tabId, w.p, a.to);
      else await cdp.drag(tabId, w.p, a.to);
      return { ok: true };
    }
    case 'type': {
      const t = a.target;
      if (t.kind === 'none' || t.kind === 'window') return typeFocused(tabId, a);
      if (t.kind === 'point') return typeAt(tabId, { x: t.x, y: t.y }, a, emulatesTouch(tabId), ctx.frameOffsets);
      const found = await resolveLabel(tabId, ctx.mark, ctx.frameOffsets, t.label);
      if (!found.ok) return found;
      // A file field takes files, not text: a click opens its chooser, which gets the attached files.
      if (found.t.r.tag === 'input' && found.t.r.inputType === 'file') return clickLabel(tabId, found.t, 'left', 1);
      return typeLabel(tabId, found.t, a);
    }
    case 'scroll': {
      const t = a.target;
      const vertical = a.direction === 'up' || a.direction === 'down';
      const amount = { ticks: a.ticks, pixels: a.pixels };
      const plain = a.ticks === undefined && a.pixels === undefined && !a.until;
      if (t.kind === 'window' || t.kind === 'none') {
        if (!vertical || !plain) return scrollWindowByWheel(tabId, a.direction, { ...amount, until: a.until }, ctx.frameOffsets);
        const { moved } = await sendContent(tabId, 'page/scroll', { direction: a.direction as 'up' | 'down' });
        return moved !== 0 ? { ok: true } : { ok: false, error: `The window did not scroll: it is already at the ${a.direction === 'down' ? 'bottom' : 'top'}.` };
      }
      if (t.kind === 'point') {
        const p = { x: t.x, y: t.y };
        return a.until ? wheelToEnd(tabId, p, a.direction, ctx.frameOffsets) : wheelAt(tabId, p, a.direction, amount, ctx.frameOffsets);
      }
      const found = await resolveLabel(tabId, ctx.mark, ctx.frameOffsets, t.label);
      if (!found.ok) return found;
      if (plain) return scrollLabel(tabId, ctx.mark, found.t, a.direction);
      const p = { x: found.t.x, y: found.t.y };
      return a.until ? wheelToEnd(tabId, p, a.direction, ctx.frameOffsets) : wheelAt(tabId, p, a.direction, amount, ctx.frameOffsets);
    }
    case 'key':
      return pressKeys(tabId, a.keys);
    case 'wait':
      return { ok: true };
    case 'goBack':
      return historyStep(tabId, -1);
    case 'goHome':
      await chrome.tabs.update(tabId, { url: ctx.startUrl });
      return { ok: true };
    case 'search':
      await chrome.tabs.update(tabId, { url: ctx.searchStartPage });
      return { ok: true };
    case 'navigate':
      return openUrl(tabId, a.url);
    case 'openApp':
      return openApp(tabId, a.name, ctx.apps);
    case 'quote':
      return quote(tabId, a);
    case 'llm': {
      const r = await ctx.ask(a.prompt);
      return r.ok ? { ok: true, set: { name: a.output, value: r.text }, usage: r.usage } : { ok: false, error: `The language model call failed: ${r.error}` };
    }
    case 'clipboard': {
      const copied = await lastCopied(ctx.tabIds);
      if (!copied) return { ok: false, error: 'Nothing was copied in this tab during the run: use the page\'s copy button or select text and press Ctrl+C first.' };
      return { ok: true, set: { name: a.output, value: copied.text } };
    }
    case 'answer':
    case 'reply':
    case 'finish':
      return { ok: true };
  }
}
