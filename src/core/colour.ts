/**
 * Colours as the labeler reads them from computed styles, and the one question it asks of them:
 * can a person tell this text from its background (docs/labeling.md, "The text of an element")?
 *
 * Pure. Computed colours in Chromium are `rgb(r, g, b)`, `rgba(r, g, b, a)` or `transparent`;
 * other forms (`color(srgb …)`, `oklch(…)`, …) are converted by the caller or not judged.
 */

export interface Rgba { r: number; g: number; b: number; a: number }

export const TRANSPARENT: Rgba = { r: 0, g: 0, b: 0, a: 0 };
export const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

/** `rgb()` / `rgba()` (commas or spaces, `/ alpha`, alpha as a number or a percentage) and `transparent`; null otherwise. */
export function parseColour(s: string): Rgba | null {
  const t = s.trim().toLowerCase();
  if (t === 'transparent') return TRANSPARENT;
  const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)\s*(?:[,/]\s*([\d.]+)(%?)\s*)?\)$/.exec(t);
  if (!m) return null;
  const a = m[4] === undefined ? 1 : Number(m[4]) / (m[5] ? 100 : 1);
  const c = [m[1], m[2], m[3]].map(Number);
  if ([...c, a].some((x) => !Number.isFinite(x))) return null;
  return { r: c[0], g: c[1], b: c[2], a: Math.min(1, Math.max(0, a)) };
}

/** `top` painted over `bottom` (source-over), the result as opaque as the two together. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top.a + bottom.a * (1 - top.a);
  if (a === 0) return TRANSPARENT;
  const mix = (t: number, b: number) => (t * top.a + b * bottom.a * (1 - top.a)) / a;
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a };
}

function luminance(c: Rgba): number {
  const lin = (v: number) => {
    const x = v / 255;
    return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** WCAG contrast ratio of two opaque colours, 1 (the same) to 21 (black on white). */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const la = luminance(a), lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * Below this contrast ratio, with no channel apart by MAX_CHANNEL or more, text cannot be told
 * from its background. 1.5:1: white on a browser's default button face (#efefef, 1.15:1) or
 * #eee on white (1.16:1) cannot be read at a glance; #ccc on white (1.6:1, and 51 apart) can.
 * WCAG asks 4.5:1 for comfortable reading; this is the line below which nobody reads at all.
 */
export const MIN_CONTRAST = 1.5;
export const MAX_CHANNEL = 40;

/**
 * Is text of colour `text` (any alpha, times `opacity`) unreadable on the opaque background `bg`?
 * Both the luminance contrast and every channel must be close: red on a green of the same
 * luminance is read easily. `#fefefe` on `#fff`, `#080808` on black, black at 3 % alpha, white on
 * a default button face, `#eee` on white are unreadable; `#ccc` on white is faint but seen.
 */
export function unreadable(text: Rgba, bg: Rgba, opacity = 1): boolean {
  const seen = over({ ...text, a: text.a * opacity }, { ...bg, a: 1 });
  const near = Math.max(Math.abs(seen.r - bg.r), Math.abs(seen.g - bg.g), Math.abs(seen.b - bg.b)) < MAX_CHANNEL;
  return near && contrastRatio(seen, { ...bg, a: 1 }) < MIN_CONTRAST;
}
