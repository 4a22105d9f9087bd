/** What the labeler reports for one labelled element (serializable). */
export interface Rect { x: number; y: number; width: number; height: number }

export interface Mark {
  label: number;
  /** lower-case tag name, e.g. "button", "a", "input", "div" */
  tag: string;
  /** the text shown in the element list (already collapsed and cut; not yet quoted) */
  text: string;
  /** CSS pixels, top-page viewport coordinates */
  rect: Rect;
  /** input type for inputs (e.g. "password"), else undefined */
  inputType?: string;
}

export interface Viewport { width: number; height: number; devicePixelRatio: number }

/** The answer to one labeling pass. */
export interface MarksSnapshot {
  url: string;
  title: string;
  viewport: Viewport;
  marks: Mark[];
}
