import type { InjectionKind } from './injection';
import type { FieldInfo, FormInfo } from './guards/fields';

/** What the labeler reports for one labelled element (serializable). */
export interface Rect { x: number; y: number; width: number; height: number }

/** A picture on screen (picture-text.ts): its visible part (CSS px of its frame's viewport; of the top viewport once merged), its element's tag, its frame's address when not the top page. */
export interface PictureBox { rect: Rect; tag: string; frame?: string }

/**
 * How labels are drawn on the model's screenshot: 'corner' (label N near the element's top-left
 * corner, placed so that no two overlap) or 'centre-from-1' (AppAgent's tags: N + 1 centred on
 * the element). Dialects choose it (Observes.labelStyle).
 */
export type LabelStyle = 'corner' | 'centre-from-1';

/**
 * What identifies an element across a re-labelling: before acting on label N
 * the run re-resolves it and compares (docs/labeling.md).
 */
export interface Fingerprint {
  tag: string;
  /** the mark's text */
  text: string;
  /** a structural path from the frame's document (tag:nth-of-type, through shadow roots as "#shadow") */
  path: string;
}

export interface Mark {
  label: number;
  /** lower-case tag name, e.g. "button", "a", "input", "div"; "option" for our select-list items */
  tag: string;
  /** the text shown in the element list (whitespace collapsed, capped at 1000; the dialect quotes and cuts) */
  text: string;
  /** CSS pixels, top-page viewport coordinates (after merging frames), clipped to the visible part */
  rect: Rect;
  /** input type for inputs (e.g. "password"), else undefined */
  inputType?: string;
  /** the extension frame id the element lives in (0 = top frame) */
  frameId?: number;
  /** the element's label inside its own frame's pass */
  localLabel?: number;
  fingerprint?: Fingerprint;
  /** true for a scrollable container (a target for "Scroll [N]") */
  scrollable?: boolean;
}

export interface Viewport { width: number; height: number; devicePixelRatio: number }

/** The answer to one labeling pass (all frames merged). */
/**
 * Words aimed at the agent found in what a frame shows besides its controls (paragraphs,
 * headings, cells, an image's alt, a tooltip, an accessible name): the page text screen of
 * content-scripts/labeler/screen-text.ts, for the injection check (core/injection/index.ts).
 */
export interface TextFinding {
  phrase: string;
  kind: InjectionKind;
  channel: 'text' | 'alt' | 'title' | 'aria-label';
  /** the element's tag */
  tag: string;
  /** the start of the text, one line */
  excerpt: string;
  /** the frame's address when it is not the top page (set when the frames are merged) */
  frame?: string;
}

export interface MarksSnapshot {
  url: string;
  title: string;
  viewport: Viewport;
  marks: Mark[];
  /** words aimed at the agent in the text the frames show (TextFinding) */
  findings?: TextFinding[];
  /** the pictures on screen in the placed frames, top viewport coordinates, clipped to what shows (picture-text.ts) */
  pictures?: PictureBox[];
  /** time the text screen took in the pages, summed over frames (ms) */
  screenMs?: number;
  /** time spent labelling in the pages, per frame pass summed (performance.now) */
  labelMs?: number;
  /** where each labelled frame's viewport origin sits in the top page (frame-local + offset = top coords) */
  frameOffsets?: Record<number, { x: number; y: number }>;
  /** every frame read its candidates from its page index (docs/labeling.md, "Between passes") instead of walking its page */
  indexed?: boolean;
  /** how the top frame found its candidates (FrameMarks.pass) */
  pass?: PassKind;
  /**
   * Frames that answered the pass but got no labels, and why (a diagnosis for the trace: a link
   * answer that came too late, an id two iframes claimed, a size that did not match yet)
   */
  framesLeftOut?: string[];
  /** the frames' control values, hashed (FrameMarks.values), in frame order */
  values?: string;
}

/** A child frame as its parent sees it. */
export interface ChildFrame {
  /** the id our content script in that iframe gave the parent (its own `token`); null when none or more than one came */
  token: string | null;
  /** the id was read straight from the child's isolated world (same origin), not answered over a port a page could have taken */
  sure?: boolean;
  /** the iframe's content box in the parent's viewport coordinates (unclipped) */
  box: Rect;
  /** the part of the content box visible in the parent's viewport (null when none) */
  visible: Rect | null;
}

/** One frame's labeling pass (content script), before merging. */
/** How a labeling pass found its candidates (docs/labeling.md): a walk, the quick pass, the page index. */
export type PassKind = 'walk' | 'quick' | 'index';

export interface FrameMarks {
  /** this frame's own random id for the pass, known only to our content scripts; null in the top frame */
  token: string | null;
  url: string;
  title: string;
  viewport: Viewport;
  /** marks in this frame's own viewport coordinates, labels 0..n-1 local to the frame */
  marks: Mark[];
  frames: ChildFrame[];
  /** how long the pass took in the page (performance.now), ms */
  ms: number;
  /** words aimed at the agent in this frame's shown text (its page text screen) */
  findings?: TextFinding[];
  /** the pictures on screen in this frame (frame viewport coordinates), whose words are read by OCR (picture-text.ts) */
  pictures?: PictureBox[];
  /** how long that screen took, ms */
  screenMs?: number;
  /** the candidates came from the frame's page index, not a walk */
  indexed?: boolean;
  /** how the frame found its candidates: a walk of the page, the quick pass of a page it had not seen, or its page index */
  pass?: PassKind;
  /** a short hash of the labelled controls' values and states (not passwords'): the loop guard's "the page changed" sees a value change that no text shows */
  values?: string;
}

/**
 * The element under a point, found by a hit test in its own frame (deep through shadow roots):
 * what guards, the approval card, fingerprints and replay use for an action at a point, as a
 * label's Mark serves them for an action on a label.
 */
export interface HitElement {
  /** the element a person would say they used: the interactive ancestor of what was hit, else the hit element */
  tag: string;
  /** its visible text or accessible name (whitespace collapsed, capped at 200) */
  text: string;
  /** its box in top-page viewport CSS px */
  rect: Rect;
  inputType?: string;
  /** the extension frame id it lives in (0 = top) */
  frameId: number;
  fingerprint?: Fingerprint;
  /** the absolute URL of the link it is or is inside, if any */
  href: string | null;
  /** that link has a download attribute */
  download: boolean;
  /** where it submits its form (a submit button; Enter in a field), absolute; null: no form (content-scripts/details.ts) */
  formAction?: string | null;
  /** a URL its inline click handler navigates to */
  navigatesTo?: string | null;
  /** a text field, textarea or contenteditable */
  editable: boolean;
  /** for the gate (content-scripts/details.ts): its other names, the form it is a button of, a field's attributes, form and options */
  names?: string[];
  /** it shows a picture that may carry its words (read by OCR for the gate: src/background/ocr.ts) */
  picture?: boolean;
  buttonOf?: FormInfo & { submits: boolean };
  field?: FieldInfo;
  form?: FormInfo;
  options?: string[];
}

/** A frame's answer to a hit test at a point of its own viewport. */
export type PointHit =
  | { kind: 'element'; element: Omit<HitElement, 'frameId'> }
  /** the point is over an iframe: its content box in this frame's viewport (the caller asks that frame) */
  | { kind: 'frame'; box: Rect }
  | { kind: 'none' };
