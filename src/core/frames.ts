/**
 * Merging per-frame labeling passes into one numbered list (docs/labeling.md):
 *
 * 1. Build the frame tree from ids: each child frame reports its own random id
 *    (`token`) and each parent the id our content script in each of its iframes
 *    gave it (content-scripts/labeler/frames.ts); the top frame (frameId 0) is
 *    the root. A child is placed under an iframe only when that iframe's claim
 *    to its id is the one that counts: the only claim read straight from a
 *    same-origin child (`sure`), else the only claim in the whole page (a page
 *    that forwards an id to another iframe makes two claims: neither is used);
 *    and the iframe's content box must have the child's own viewport size
 *    (within SIZE_SLACK px).
 * 2. Walk the tree depth-first in the parent's order of its iframes.
 * 3. Each frame's offset = parent offset + the iframe's content box origin;
 *    its clip = the parent's clip ∩ the iframe's visible part (in top coords).
 * 4. Each mark's rect is offset into top-page coordinates and clipped; marks
 *    that end up invisible or too small are dropped before numbering.
 * 5. Number 0..n-1 in that order: no gaps.
 * Frames that could not be placed (no id, a disputed id, a size that does not
 * match) are left out, not guessed: labels of one frame never go over another.
 * Their page text screen's findings still count (what a frame says to the agent may be on the
 * screenshot though its labels are not); only frames placed where nothing of them shows have
 * theirs left out.
 */
import type { FrameMarks, Mark, MarksSnapshot, PictureBox, Rect, TextFinding } from './marks';

export interface FrameResult { frameId: number; result: FrameMarks }

const MIN_AREA = 20;
const MIN_SIDE = 4;
/** an iframe's content box and its document's viewport may differ by rounding only */
const SIZE_SLACK = 2;

export function intersect(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const r = Math.min(a.x + a.width, b.x + b.width);
  const btm = Math.min(a.y + a.height, b.y + b.height);
  return r > x && btm > y ? { x, y, width: r - x, height: btm - y } : null;
}

function usable(r: Rect | null): r is Rect {
  return !!r && r.width >= MIN_SIDE && r.height >= MIN_SIDE && r.width * r.height >= MIN_AREA;
}

export interface Claim { token: string | null; sure?: boolean }

/**
 * Which iframes' claims to an id count (step 1): per id, the one claim read straight from a
 * same-origin child when there is one, else the only claim; none when that is disputed.
 */
export function claimsThatCount(claims: Claim[]): (c: Claim) => boolean {
  const n = new Map<string, { all: number; sure: number }>();
  for (const c of claims) {
    if (!c.token) continue;
    const k = n.get(c.token) ?? { all: 0, sure: 0 };
    k.all++;
    if (c.sure) k.sure++;
    n.set(c.token, k);
  }
  return (c) => {
    const k = c.token ? n.get(c.token) : undefined;
    if (!k) return false;
    return k.sure ? k.sure === 1 && !!c.sure : k.all === 1;
  };
}

function sameSize(box: Rect, view: { width: number; height: number }): boolean {
  return Math.abs(box.width - view.width) <= SIZE_SLACK && Math.abs(box.height - view.height) <= SIZE_SLACK;
}

export function mergeFrames(frames: FrameResult[]): MarksSnapshot | null {
  const top = frames.find((f) => f.frameId === 0);
  if (!top) return null;
  const byToken = new Map<string, FrameResult | null>();
  for (const f of frames) {
    const t = f.frameId !== 0 ? f.result.token : null;
    if (t) byToken.set(t, byToken.has(t) ? null : f);
  }
  const counts = claimsThatCount(frames.flatMap((f) => f.result.frames));
  const out: Mark[] = [];
  const offsets: Record<number, { x: number; y: number }> = {};
  let labelMs = 0;
  let screenMs = 0;
  const values: string[] = [];
  const findings: TextFinding[] = [];
  const pictures: PictureBox[] = [];
  const seen = new Set<number>();
  const topView: Rect = { x: 0, y: 0, width: top.result.viewport.width, height: top.result.viewport.height };

  const visit = (f: FrameResult, dx: number, dy: number, clip: Rect) => {
    if (seen.has(f.frameId)) return;
    seen.add(f.frameId);
    offsets[f.frameId] = { x: dx, y: dy };
    labelMs += f.result.ms;
    screenMs += f.result.screenMs ?? 0;
    if (f.result.values) values.push(`${f.frameId}:${f.result.values}`);
    for (const x of f.result.findings ?? []) findings.push(f.frameId === 0 ? x : { ...x, frame: f.result.url });
    for (const p of f.result.pictures ?? []) {
      const rect = intersect({ x: p.rect.x + dx, y: p.rect.y + dy, width: p.rect.width, height: p.rect.height }, clip);
      if (usable(rect)) pictures.push({ ...p, rect, ...(f.frameId !== 0 ? { frame: f.result.url } : {}) });
    }
    const before = out.length;
    for (const m of f.result.marks) {
      const rect = intersect({ x: m.rect.x + dx, y: m.rect.y + dy, width: m.rect.width, height: m.rect.height }, clip);
      if (!usable(rect)) continue;
      out.push({ ...m, rect, frameId: f.frameId, localLabel: m.label, label: out.length });
    }
    if (f.frameId !== 0 && f.result.marks.length && out.length === before) cut.push(f);
    for (const c of f.result.frames) {
      const child = c.token && counts(c) ? byToken.get(c.token) : null;
      if (!child || !sameSize(c.box, child.result.viewport)) continue;
      const vis = c.visible && intersect({ x: c.visible.x + dx, y: c.visible.y + dy, width: c.visible.width, height: c.visible.height }, clip);
      if (!vis) { hidden(child); continue; }
      visit(child, dx + c.box.x, dy + c.box.y, vis);
    }
  };
  /** a frame placed where nothing of it shows, with the frames inside it */
  const judged = new Set<number>();
  /** placed frames whose every label fell outside the part of their iframe that shows */
  const cut: FrameResult[] = [];
  const hidden = (f: FrameResult) => {
    if (judged.has(f.frameId)) return;
    judged.add(f.frameId);
    for (const c of f.result.frames) {
      const child = c.token && counts(c) ? byToken.get(c.token) : null;
      if (child) hidden(child);
    }
  };
  visit(top, 0, 0, topView);
  // A frame that answered but could not be placed (its link came late, its id was disputed, its
  // size did not match yet) gets no labels, but what it says to the agent still counts: the
  // screenshot may show it, and asking is safer than missing it. Only a frame placed where
  // nothing of it shows is left out.
  const leftOut: string[] = [];
  const claims = frames.flatMap((f) => f.result.frames);
  for (const f of frames) {
    if (seen.has(f.frameId) || judged.has(f.frameId)) continue;
    for (const x of f.result.findings ?? []) findings.push({ ...x, frame: f.result.url });
    if (!f.result.marks.length) continue; // no labels to leave out (an empty or zero-size frame)
    const mine = claims.filter((c) => c.token && c.token === f.result.token);
    const why = !f.result.token || byToken.get(f.result.token) === null ? 'its id was reported twice'
      : !mine.length ? 'no parent named its id (its link answer came late or never)'
        : !mine.some(counts) ? 'its id was claimed by more than one iframe'
          : !mine.some((c) => counts(c) && sameSize(c.box, f.result.viewport)) ? 'its size did not match its iframe'
            : 'its parent was not placed';
    leftOut.push(`frame ${f.frameId} (${f.result.url.slice(0, 120)}): ${why}`);
  }
  // for the record too (a frame whose labels a test expected): placed, but nothing of it labelled
  for (const f of frames) {
    if (judged.has(f.frameId) && f.result.marks.length) leftOut.push(`frame ${f.frameId} (${f.result.url.slice(0, 120)}): its iframe shows nothing (out of view or covered)`);
  }
  for (const f of cut) leftOut.push(`frame ${f.frameId} (${f.result.url.slice(0, 120)}): its labels fell outside the part of its iframe that shows`);
  return {
    url: top.result.url, title: top.result.title, viewport: top.result.viewport, marks: out, labelMs, frameOffsets: offsets, indexed: frames.every((f) => f.result.indexed === true), ...(top.result.pass ? { pass: top.result.pass } : {}),
    ...(findings.length ? { findings } : {}), ...(pictures.length ? { pictures } : {}), screenMs, ...(values.length ? { values: values.join(' ') } : {}),
    ...(leftOut.length ? { framesLeftOut: leftOut } : {}),
  };
}

/** What a frame's content script says when one of its iframes moved since the labeling pass. */
/**
 * Whether every iframe of a tab has our content script, from step 1 of a pass: each frame that
 * answered (prepareFrames) counted the iframes of its own document's tree; a frame without our
 * script gives no number. When the frames that answered besides the top one are at least the
 * iframes counted, each counted iframe answered, so parents wait for their children's link
 * answers rather than a fixed moment (content-scripts/labeler/frames.ts). More frames than counted
 * are iframes inside shadow roots, which the count does not enter. Wrong only when an iframe
 * without our script and a shadow root's iframe exactly make up for each other: then a parent
 * waits for an answer that never comes, up to the labeler's cap (3 s), and misses nothing.
 */
export function everyChildAnswers(prepared: unknown[]): boolean {
  const counts = prepared.filter((r): r is number => typeof r === 'number');
  return counts.length === prepared.length && counts.length - 1 >= counts.reduce((n, c) => n + c, 0);
}

export const FRAME_MOVED = 'a frame moved';

/**
 * The marks of the top document alone, numbered again from 0 (each keeps its label inside its
 * frame as localLabel, which acting uses): for a page whose iframes keep moving under their
 * labels, the frames' marks are left out rather than drawn where the frames no longer are.
 */
export function topFrameMarks(marks: Mark[]): Mark[] {
  return marks.filter((m) => (m.frameId ?? 0) === 0).map((m, i) => ({ ...m, label: i, localLabel: m.localLabel ?? m.label }));
}
