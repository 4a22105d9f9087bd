import { describe, expect, it } from 'vitest';
import { claimsThatCount, everyChildAnswers, intersect, mergeFrames, type FrameResult, topFrameMarks } from '../../src/core/frames';
import type { FrameMarks, Mark, MarksSnapshot } from '../../src/core/marks';

const vp = { width: 1000, height: 800, devicePixelRatio: 1 };
const mark = (label: number, x: number, y: number, w = 50, h = 20): Mark => ({ label, tag: 'button', text: `b${label}`, rect: { x, y, width: w, height: h } });
const small = { ...vp, width: 100, height: 100 };
const frame = (over: Partial<FrameMarks>): FrameMarks => ({ token: null, url: 'https://a/', title: 't', viewport: vp, marks: [], frames: [], ms: 1, ...over });

describe('mergeFrames', () => {
  it('numbers the top frame first, then child frames depth-first, in top-page coordinates, without gaps', () => {
    const frames: FrameResult[] = [
      { frameId: 0, result: frame({ marks: [mark(0, 10, 10), mark(1, 10, 700)], frames: [
        { token: 'A', box: { x: 100, y: 100, width: 400, height: 300 }, visible: { x: 100, y: 100, width: 400, height: 300 } },
        { token: 'B', box: { x: 600, y: 100, width: 300, height: 300 }, visible: { x: 600, y: 100, width: 300, height: 300 } },
      ] }) },
      // B answers before A: order comes from the parent's list, not from arrival.
      { frameId: 7, result: frame({ token: 'B', viewport: { ...vp, width: 300, height: 300 }, marks: [mark(0, 5, 5)] }) },
      { frameId: 3, result: frame({ token: 'A', viewport: { ...vp, width: 400, height: 300 }, marks: [mark(0, 0, 0), mark(1, 390, 10, 50, 20)], frames: [
        { token: 'A1', box: { x: 10, y: 200, width: 100, height: 50 }, visible: { x: 10, y: 200, width: 100, height: 50 } },
      ] }) },
      { frameId: 9, result: frame({ token: 'A1', viewport: { ...vp, width: 100, height: 50 }, marks: [mark(0, 1, 1, 30, 30)] }) },
    ];
    const s = mergeFrames(frames)!;
    expect(s.marks.map((m) => [m.label, m.frameId, m.localLabel])).toEqual([[0, 0, 0], [1, 0, 1], [2, 3, 0], [3, 3, 1], [4, 9, 0], [5, 7, 0]]);
    expect(s.marks[2].rect).toEqual({ x: 100, y: 100, width: 50, height: 20 });
    // clipped to the iframe's visible part: 490..540 -> 490..500
    expect(s.marks[3].rect).toEqual({ x: 490, y: 110, width: 10, height: 20 });
    expect(s.marks[4].rect).toEqual({ x: 111, y: 301, width: 30, height: 30 });
    expect(s.frameOffsets).toEqual({ 0: { x: 0, y: 0 }, 3: { x: 100, y: 100 }, 9: { x: 110, y: 300 }, 7: { x: 600, y: 100 } });
    expect(s.labelMs).toBe(4);
  });

  it('drops marks that are clipped away, frames that are not visible, and frames nobody embeds', () => {
    const s = mergeFrames([
      { frameId: 0, result: frame({ frames: [{ token: 'H', box: { x: 0, y: 0, width: 100, height: 100 }, visible: null }, { token: 'C', box: { x: 0, y: 0, width: 100, height: 100 }, visible: { x: 0, y: 0, width: 100, height: 100 } }] }) },
      { frameId: 1, result: frame({ token: 'H', viewport: small, marks: [mark(0, 1, 1)] }) },
      { frameId: 2, result: frame({ token: 'C', viewport: small, marks: [mark(0, 98, 98), mark(1, 10, 10)] }) },
      { frameId: 5, result: frame({ token: 'nobody', marks: [mark(0, 1, 1)] }) },
    ])!;
    expect(s.marks.map((m) => [m.label, m.frameId, m.localLabel])).toEqual([[0, 2, 1]]);
  });

  it('what a frame says to the agent counts unless the frame is placed where nothing of it shows (and the frames inside it)', () => {
    const said = (text: string) => ({ findings: [{ phrase: text, kind: 'override' as const, channel: 'text' as const, tag: 'p', excerpt: text }] });
    const s = mergeFrames([
      { frameId: 0, result: frame({ frames: [{ token: 'H', box: { x: 0, y: 0, width: 100, height: 100 }, visible: null }, { token: 'C', box: { x: 0, y: 0, width: 100, height: 100 }, visible: { x: 0, y: 0, width: 100, height: 100 } }] }) },
      // placed, hidden: its text is not on the screenshot; nor is its own child's
      { frameId: 1, result: frame({ token: 'H', viewport: small, ...said('hidden frame'), frames: [{ token: 'HH', box: { x: 0, y: 0, width: 100, height: 100 }, visible: { x: 0, y: 0, width: 100, height: 100 } }] }) },
      { frameId: 4, result: frame({ token: 'HH', url: 'https://inner/', viewport: small, ...said('inside the hidden frame') }) },
      { frameId: 2, result: frame({ token: 'C', url: 'https://c/', viewport: small, ...said('shown frame') }) },
      // answered, but its link came too late (nobody claims its id): its labels are left out, its words are not
      { frameId: 5, result: frame({ token: 'late', url: 'https://late/', ...said('late frame'), marks: [mark(0, 1, 1)] }) },
    ])!;
    expect(s.findings?.map((f) => [f.excerpt, f.frame])).toEqual([['shown frame', 'https://c/'], ['late frame', 'https://late/']]);
    expect(s.marks.map((m) => m.frameId)).toEqual([]);
  });

  it('the record names every frame with labels that got none, and why', () => {
    const s = mergeFrames([
      { frameId: 0, result: frame({ frames: [{ token: 'H', box: { x: 0, y: 0, width: 100, height: 100 }, visible: null }, { token: 'C', box: { x: 0, y: 0, width: 100, height: 100 }, visible: { x: 0, y: 0, width: 100, height: 100 } }] }) },
      { frameId: 1, result: frame({ token: 'H', url: 'https://hidden/', viewport: small, marks: [mark(0, 1, 1)] }) },
      // placed, but its only label is outside the part of its iframe that shows
      { frameId: 2, result: frame({ token: 'C', url: 'https://cut/', viewport: small, marks: [mark(0, 500, 500)] }) },
      { frameId: 5, result: frame({ token: 'late', url: 'https://late/', marks: [mark(0, 1, 1)] }) },
      // unclaimed too, but with nothing to label (a zero-size frame a form loads into): nothing was left out
      { frameId: 6, result: frame({ token: 'sink', url: 'about:blank', viewport: { ...small, width: 0, height: 0 } }) },
    ])!;
    expect(s.framesLeftOut).toEqual([
      'frame 5 (https://late/): no parent named its id (its link answer came late or never)',
      'frame 1 (https://hidden/): its iframe shows nothing (out of view or covered)',
      'frame 2 (https://cut/): its labels fell outside the part of its iframe that shows',
    ]);
  });

  // The ids come from our content scripts only (content-scripts/labeler/frames.ts), but a page can
  // still make an iframe claim an id that is not its own (a child script that grabs the link port
  // and answers with a sibling's id, a parent forwarding one): a claim made twice places nobody.
  const box = (x: number) => ({ x, y: 0, width: 100, height: 100 });
  const top = (...claims: Array<[string | null, number]>) => ({ frameId: 0, result: frame({ frames: claims.map(([token, x]) => ({ token, box: box(x), visible: box(x) })) }) });
  const child = (frameId: number, token: string, viewport = small) => ({ frameId, result: frame({ token, viewport, marks: [mark(0, 10, 10)] }) });
  const placed = (s: MarksSnapshot | null) => s!.marks.map((m) => [m.frameId, m.rect.x]);

  it('an id claimed by two iframes (a replayed or forwarded id) places neither; the others still are', () => {
    expect(placed(mergeFrames([top(['A', 0], ['B', 200], ['A', 400]), child(1, 'A'), child(2, 'B')]))).toEqual([[2, 210]]);
    // a nested frame claiming a top-level sibling's id disputes it too
    expect(placed(mergeFrames([top(['A', 0], ['B', 200]), { ...child(1, 'A'), result: { ...child(1, 'A').result, frames: [{ token: 'B', box: box(0), visible: box(0) }] } }, child(2, 'B')])))
      .toEqual([[1, 10]]);
  });

  it('a claim read straight from a same-origin child beats a forwarded one; two sure claims place neither', () => {
    const sure = (token: string, x: number) => ({ token, sure: true, box: box(x), visible: box(x) });
    const port = (token: string, x: number) => ({ token, box: box(x), visible: box(x) });
    const tree = (...fs: ReturnType<typeof port>[]) => ({ frameId: 0, result: frame({ frames: fs }) });
    expect(placed(mergeFrames([tree(sure('A', 0), port('A', 200)), child(1, 'A')]))).toEqual([[1, 10]]);
    expect(placed(mergeFrames([tree(port('A', 200), sure('A', 0)), child(1, 'A')]))).toEqual([[1, 10]]);
    expect(placed(mergeFrames([tree(sure('A', 0), sure('A', 200)), child(1, 'A')]))).toEqual([]);
    expect(claimsThatCount([{ token: 'A' }, { token: null }])({ token: 'A' })).toBe(true);
    expect(claimsThatCount([{ token: 'A' }])({ token: null })).toBe(false);
  });

  it('two frames reporting one id, an iframe with no id, and a box of another size place nothing', () => {
    expect(placed(mergeFrames([top(['A', 0]), child(1, 'A'), child(2, 'A')]))).toEqual([]);
    expect(placed(mergeFrames([top([null, 0]), child(1, 'A')]))).toEqual([]);
    expect(placed(mergeFrames([top(['A', 0]), child(1, 'A', { ...vp, width: 300, height: 100 })]))).toEqual([]);
    expect(placed(mergeFrames([top(['A', 0]), child(1, 'A', { ...vp, width: 101.5, height: 99 })]))).toEqual([[1, 10]]);
  });

  it('needs the top frame', () => {
    expect(mergeFrames([{ frameId: 2, result: frame({}) }])).toBeNull();
    expect(intersect({ x: 0, y: 0, width: 1, height: 1 }, { x: 2, y: 2, width: 1, height: 1 })).toBeNull();
  });
});

describe('topFrameMarks (a page whose iframes keep moving)', () => {
  it('keeps the top document\'s marks, numbered again without gaps, each with its label in its frame', () => {
    const r = { x: 0, y: 0, width: 10, height: 10 };
    const marks = [
      { label: 0, tag: 'a', text: 'x', rect: r, frameId: 0 },
      { label: 1, tag: 'button', text: 'in a frame', rect: r, frameId: 7, localLabel: 0 },
      { label: 2, tag: 'a', text: 'y', rect: r },
    ];
    expect(topFrameMarks(marks).map((m) => [m.label, m.localLabel, m.text])).toEqual([[0, 0, 'x'], [1, 2, 'y']]);
  });
});

describe('everyChildAnswers (step 1 of a pass: does every iframe have our content script?)', () => {
  it('yes when the frames that answered besides the top one make up the iframes counted', () => {
    expect(everyChildAnswers([2, 0, 0])).toBe(true);
    expect(everyChildAnswers([0])).toBe(true); // no iframe at all
  });
  it('yes when more answered than were counted: iframes in shadow roots are not counted', () => {
    expect(everyChildAnswers([1, 0, 0])).toBe(true);
  });
  it('no when fewer answered than were counted, or a frame had no labeler to answer', () => {
    expect(everyChildAnswers([3, 0, 0])).toBe(false);
    expect(everyChildAnswers([2, 0, '__missing__'])).toBe(false);
    expect(everyChildAnswers([1, null])).toBe(false);
    expect(everyChildAnswers([])).toBe(false);
  });
});
