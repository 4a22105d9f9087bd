/**
 * Element boxes read once per screen of a pass. The page text screen (screen-text.ts), the drawn
 * text (seen-text.ts) and the pictures on screen (pictures.ts) run one after another in one task,
 * without yielding and without changing the page, so the layout cannot change between them; each
 * used to ask the box of the same elements again (on a page whose style sheets cannot all be read,
 * every element's, two and three times over). Outside `sharingBoxes` a box is read as it is.
 */
let boxes: Map<Element, DOMRect> | null = null;

/** Runs `f` with one box per element for all of it (nested calls share the outer one). */
export function sharingBoxes<T>(f: () => T): T {
  if (boxes) return f();
  boxes = new Map();
  try {
    return f();
  } finally {
    boxes = null;
  }
}

/** The element's border box in viewport px (getBoundingClientRect), read once within sharingBoxes. */
export function boxOf(el: Element): DOMRect {
  if (!boxes) return el.getBoundingClientRect();
  let r = boxes.get(el);
  if (!r) {
    r = el.getBoundingClientRect();
    boxes.set(el, r);
  }
  return r;
}
