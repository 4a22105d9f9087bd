/**
 * The labeler's API, called by the content script in every frame (and by the test harness).
 * Safe to call twice and to inject twice: state lives on globalThis (state.ts, frames.ts).
 *
 * Single frame (harness, and the "marks/draw" message): drawMarks() = collect + draw.
 * All frames (background/label.ts): prepareFrames() in every frame, collectFrame() in every frame
 * (no drawing), the background merges (src/core/frames.ts); a run draws the labels onto its
 * screenshot (src/background/draw-labels.ts), Show labels calls drawOverlay(merged) in the top.
 * Actions then use this frame's local labels: resolveMark, focusMark, scrollMark, chooseInSelect.
 */
import type { FrameMarks, LabelStyle, Mark, MarksSnapshot, PassKind, Rect, TextFinding } from '../../src/core/marks';
import type { ResolvedMark } from '../../src/core/messages';
import type { PictureBox } from '../../src/core/picture-text';
import { adoptWalkedRoots, installSelectRewrite, lastSelectPick, removeSelectRewrite } from '../select-rewrite';
import { collectCandidates } from './collect';
import { dropIndex, indexBuilt, indexDropped } from './page-index';
import type { Walked } from './walk';
import { drawnLabelBoxes, removeOverlay, renderOverlay } from './draw';
import { PathCache } from './fingerprint';
import { beginLinking, childFrames, forgetFrames, framesMoved, LINK_WAIT_ALL_MS, listenForLinks, prepareFrames, selfId } from './frames';
import { rememberingRoots } from './dom';
import { inputTypeOf, tagOf, textsOf } from './describe';
import { beginTextPass } from './unseen-text';
import { screenAfresh, screenPageText } from './screen-text';
import { screenSeenText } from './seen-text';
import { picturesOnScreen } from './pictures';
import { fetchUnreadSheets } from './sheets';
import { sharingBoxes } from './boxes';
import { state, type Entry } from './state';
import { controlValues } from './values';

export type { ResolvedMark };
export { framesMoved, listenForLinks, prepareFrames, lastSelectPick };
export { chooseInSelect, focusMark, resolveMark, scrollMark, scrollWindow } from './resolve';

// Every frame answers its parent's link request from the start (frames.ts step 2).
listenForLinks();

function viewport() {
  return { width: window.innerWidth, height: window.innerHeight, devicePixelRatio: window.devicePixelRatio || 1 };
}

/**
 * One labeling pass (reads only): 1. collect candidates (collect.ts); 2. read texts and
 * fingerprints; 3. number them 0..n-1 in document order; 4. remember label → element.
 * Synchronous, so closed shadow roots found once are remembered for the pass (dom.rememberingRoots).
 */
function labelPass(): { marks: Mark[]; walked: Walked; indexed: boolean; pass: PassKind } {
  return rememberingRoots(readMarks);
}

function readMarks(): { marks: Mark[]; walked: Walked; indexed: boolean; pass: PassKind } {
  beginTextPass();
  const { candidates, labels, walked, kind } = collectCandidates();
  const paths = new PathCache();
  const entries: Entry[] = [];
  const marks = candidates.map((c, label) => {
    const tag = tagOf(c.owner);
    const { text, stable } = textsOf(c.el, c.owner, labels, c.scrollOnly, c.style);
    const fingerprint = { tag, text, path: paths.path(c.el) };
    entries.push({ el: c.el, owner: c.owner, tag, fingerprint, stable, scrollOnly: c.scrollOnly });
    const mark: Mark = { label, tag, text, rect: c.rect, fingerprint };
    const type = inputTypeOf(c.owner);
    if (type !== undefined) mark.inputType = type;
    if (c.scrollable) mark.scrollable = true;
    return mark;
  });
  state().entries = entries;
  return { marks, walked, indexed: kind === 'index', pass: kind };
}

/** The shadow roots the last pass's walk met (the page text screen reads them too). */
let lastRoots: ShadowRoot[] = [];

/** The page text screen of this frame: its text in DOM order (screen-text.ts), then what is drawn as a person reads it (seen-text.ts). */
function screenFrame(roots: ShadowRoot[], vw: number, vh: number, screen = screenPageText): TextFinding[] {
  return sharingBoxes(() => {
    const inOrder = screen(roots, vw, vh);
    return [...inOrder, ...screenSeenText(roots, inOrder, vw, vh)];
  });
}

/** The page text screen of this frame over the last pass's roots: for the harness and tests. */
export function screenText(): TextFinding[] {
  return screenFrame(lastRoots, window.innerWidth, window.innerHeight);
}

/** Single frame: label this document and draw the overlay (replacing any earlier one). */
export function drawMarks(): MarksSnapshot {
  installSelectRewrite(false);
  removeOverlay();
  const t0 = performance.now();
  const { marks, walked, indexed, pass } = labelPass();
  adoptWalkedRoots(walked.roots);
  lastRoots = walked.roots;
  const labelMs = performance.now() - t0;
  const view = viewport();
  renderOverlay(marks, view.width, view.height);
  return { url: location.href, title: document.title, viewport: view, marks, labelMs, indexed, pass };
}

/**
 * All frames: label this frame without drawing. Marks are in this frame's viewport coordinates,
 * labels local (0..n-1); `frames` are this document's iframes with the id each one's content
 * script gave (frames.ts; asked while the pass runs, answers awaited up to 200 ms); `token` is
 * this frame's own id (null in the top frame).
 * The select rewrite is installed first and handed the shadow roots the pass's walk found (one
 * walk of the page per pass: the iframes for the links come from it too, frames.ts beginLinking).
 * An overlay left from the previous round is removed first, as drawMarks does (it is redrawn
 * from the merged marks after the pass anyway): while attached, its two positioned boxes per mark
 * sit in the top layer and every hit-test of the pass walks them, a cost that grows with marks ×
 * hit-tests (kanban page, 58 marks: 7 ms a pass with it, 2 ms without). Removing it costs one
 * style and layout update in the pass instead (~0.1–0.2 ms).
 */
export async function collectFrame(opts: { everyChildAnswers?: boolean } | null = null): Promise<FrameMarks> {
  installSelectRewrite(false);
  // every iframe of the tab has our content script (label.ts): wait for each child's answer, not a fixed moment
  const finishLinks = beginLinking(opts?.everyChildAnswers ? LINK_WAIT_ALL_MS : undefined);
  removeOverlay();
  const t0 = performance.now();
  // another origin's style sheets, for the quick pass (sheets.ts): a wait on the critical path, counted as labeling
  if (!indexBuilt()) await fetchUnreadSheets();
  const { marks, walked, indexed, pass } = labelPass();
  adoptWalkedRoots(walked.roots);
  const view = viewport();
  let ms = performance.now() - t0;
  await finishLinks(walked.frames);
  const t1 = performance.now();
  const frames = childFrames(view.width, view.height);
  ms += performance.now() - t1;
  // what the frame shows besides its controls, screened for words aimed at the agent (screen-text.ts)
  const t2 = performance.now();
  lastRoots = walked.roots;
  // both read the page without changing it, in this one task: one box per element for both (boxes.ts)
  const { findings, pictures } = sharingBoxes(() => ({
    findings: screenFrame(walked.roots, view.width, view.height),
    // the pictures on screen, whose drawn words the background reads (pictures.ts)
    pictures: picturesOnScreen(walked.roots, view.width, view.height),
  }));
  const screenMs = performance.now() - t2;
  return {
    token: selfId(), url: location.href, title: document.title, viewport: view, marks, frames, ms, indexed, pass, screenMs, values: controlValues(state().entries),
    ...(findings.length ? { findings } : {}), ...(pictures.length ? { pictures } : {}),
  };
}

/** Top frame only: draw the merged marks (top-page coordinates) as the overlay a person sees. */
export function drawOverlay(marks: Mark[], style: LabelStyle = 'corner'): void {
  if (window !== window.top) return;
  renderOverlay(marks, window.innerWidth, window.innerHeight, style);
}

/** Test helper: the label tags as drawn (viewport px), in label order. */
export function labelBoxes(): Rect[] {
  return drawnLabelBoxes();
}

/** Remove the overlay (before an action runs); the label → element map is kept. */
export function hideMarks(): void {
  removeOverlay();
}

/** Remove the overlay, forget the labels and undo the select rewrite (page restored). */
export function resetMarks(): void {
  removeOverlay();
  dropIndex();
  state().entries = [];
  forgetFrames();
  removeSelectRewrite();
}

/** Test-only: walk the page in full on the next pass (the page index is built again after it). */
export function forgetIndex(): void {
  dropIndex();
}

/** The pictures on screen in this frame over the last pass's roots (pictures.ts): for the harness and tests. */
export function pictureBoxes(): PictureBox[] {
  return picturesOnScreen(lastRoots, window.innerWidth, window.innerHeight);
}

/** Test-only: the page text screen of the last pass's roots, as if the frame were read for the first time. */
export function screenTextAfresh(): TextFinding[] {
  return screenFrame(lastRoots, window.innerWidth, window.innerHeight, screenAfresh);
}

/** Test-only: why the page index was last dropped, and whether one is built now. */
export { indexDropped, indexBuilt };

/** Test-only: the elements behind labels 0..n-1 of the last pass. */
export function debugElements(): Element[] {
  return state().entries.map((e) => e.el);
}
