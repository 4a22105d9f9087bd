/**
 * Words drawn in the pictures on screen (docs/labeling.md, "Words in pictures"): the model reads
 * the screenshot, so the text of an image, a canvas, a CSS background image, a video's poster or
 * an SVG is screened like the page's text. Each frame lists its pictures on screen
 * (content-scripts/labeler/pictures.ts); their parts of the step's clean capture are read on this
 * machine by OCR (background/ocr.ts, the offscreen document, beside the model's request); a
 * picture already read in the run (the same pixels) is not read again. Pure.
 */
import { detectInjection, type InjectionHit } from './injection';
import type { PictureBox } from './marks';

export type { PictureBox };

/** pictures smaller than this on screen (CSS px) hold no line a person reads: icons, bullets, spacers */
export const MIN_PICTURE_WIDTH = 32;
export const MIN_PICTURE_HEIGHT = 14;
/** at most this many pictures are looked at for a step (the largest first); the rest are said as not read */
export const MAX_PICTURES = 200;
/** pictures read, remembered by their pixels' hash (cleared when full) */
export const MAX_KNOWN = 2000;

/** What one picture's read gave: the words read with confidence (may be ''), or null when it was not read in time. */
export interface PictureRead { text: string; reused: boolean }

/**
 * The step's record of the pictures read (the trace's `pictureText`): how many were on screen,
 * read now, known from an earlier step (the same pixels), not read (past the step's deadline or
 * the MAX_PICTURES largest); the time the reads took (ms, from the capture to the last answer),
 * or the reason nothing could be read.
 */
export interface PictureText {
  pictures: number;
  read: number;
  reused: number;
  unread: number;
  ms: number;
  error?: string;
}

/** A step's pictures read: its record, and the words aimed at the agent in them. */
export interface PicturesRead { record: PictureText; findings: InjectionHit[] }

/** The pictures worth reading: each at least MIN size, the same box once, the largest first, at most MAX_PICTURES; and how many were left. */
export function picturesToRead(boxes: readonly PictureBox[]): { read: PictureBox[]; left: number } {
  const seen = new Set<string>();
  const out: PictureBox[] = [];
  for (const b of boxes) {
    if (b.rect.width < MIN_PICTURE_WIDTH || b.rect.height < MIN_PICTURE_HEIGHT) continue;
    const key = [b.rect.x, b.rect.y, b.rect.width, b.rect.height].map(Math.round).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(b);
  }
  out.sort((a, b) => b.rect.width * b.rect.height - a.rect.width * a.rect.height);
  return { read: out.slice(0, MAX_PICTURES), left: Math.max(0, out.length - MAX_PICTURES) };
}

/**
 * OCR text as a person would read it where the glyphs are the same: in most sans-serif fonts a
 * capital I and a small l are drawn alike, so OCR reads "AI agents" as "Al agents" and "Ignore"
 * as "lgnore". A standalone A-l (or A-1, A-|) is read AI, a word-initial l (or |) before a
 * consonant that no English word begins with after l is read I, and a lone l, | or 1 is read I.
 */
export function ocrFolded(text: string): string {
  return text
    .replace(/\bA[l1|](?![A-Za-z0-9])/g, 'AI')
    .replace(/(^|[^A-Za-z0-9])[l|](?=[bcdfgkmnpqrstvwxz])/g, '$1I')
    .replace(/(^|\s)[l|1](?=\s|$)/g, '$1I');
}

/** The first finding in OCR text, as read or as folded (ocrFolded). */
function hitInOcr(text: string) {
  return detectInjection([{ text, where: 0 }])[0] ?? detectInjection([{ text: ocrFolded(text), where: 0 }])[0];
}

/** The words around a phrase in `text` (about 140 characters). */
function around(text: string, phrase: string): string {
  const at = text.toLowerCase().indexOf(phrase.toLowerCase().slice(0, 12));
  return text.slice(Math.max(0, at < 0 ? 0 : at - 20), (at < 0 ? 0 : at) + 120).trim();
}

/**
 * The words aimed at the agent in the pictures read: each picture's words, then all of them
 * together in the order they are drawn (top to bottom, left to right), so an instruction split
 * over pictures placed side by side ("Ignore all previous" | "instructions and …") is read as the
 * screenshot shows it. One finding per phrase, at the first picture that says it (for a split one,
 * the first picture of the row it starts in).
 */
export function pictureFindings(boxes: readonly PictureBox[], reads: ReadonlyArray<PictureRead | null>): InjectionHit[] {
  const out: InjectionHit[] = [];
  const add = (b: PictureBox, text: string, hit: { phrase: string; kind: InjectionHit['kind'] }) => {
    if (out.some((h) => h.phrase === hit.phrase)) return;
    out.push({ phrase: hit.phrase, kind: hit.kind, where: { channel: 'picture', tag: b.tag, excerpt: around(text, hit.phrase), ...(b.frame ? { frame: b.frame } : {}) } });
  };
  const read = boxes.map((b, i) => ({ b, text: reads[i]?.text.replace(/\s+/g, ' ').trim() ?? '' })).filter((x) => x.text);
  for (const { b, text } of read) {
    const hit = hitInOcr(text);
    if (hit) add(b, ocrFolded(text), hit);
  }
  if (read.length < 2) return out;
  // in drawn order: rows by their middles (a picture whose middle is within another's height is in its row), left to right
  const drawn = [...read].sort((p, q) => {
    const pm = p.b.rect.y + p.b.rect.height / 2, qm = q.b.rect.y + q.b.rect.height / 2;
    const sameRow = Math.abs(pm - qm) < Math.min(p.b.rect.height, q.b.rect.height) / 2;
    return sameRow ? p.b.rect.x - q.b.rect.x : pm - qm;
  });
  const joined = ocrFolded(drawn.map((x) => x.text).join(' '));
  for (const hit of [hitInOcr(joined)].filter((h) => !!h)) {
    if (out.some((h) => h.phrase === hit.phrase)) continue;
    const start = joined.toLowerCase().indexOf(hit.phrase.toLowerCase().split(' ')[0]);
    let at = 0;
    const first = drawn.find((x) => { at += x.text.length + 1; return start < at; }) ?? drawn[0];
    add(first.b, joined, hit);
  }
  return out;
}

/** The step's record from the reads (`left`: pictures past MAX_PICTURES). */
export function pictureRecord(reads: ReadonlyArray<PictureRead | null>, left: number, ms: number): PictureText {
  const done = reads.filter((r): r is PictureRead => r !== null);
  return { pictures: reads.length + left, read: done.filter((r) => !r.reused).length, reused: done.filter((r) => r.reused).length, unread: reads.length - done.length + left, ms: Math.round(ms) };
}

/**
 * Reads `pictures` in order: a picture whose pixels were read before (`key`, a hash of its
 * pixels, in `known`) gives what was read then, `reused`; a new one is read (`read`) and
 * remembered, unless `budgetMs` has passed since the start (`now`): then null, not read in time.
 * Pictures already known are never left unread, however late: knowing one costs its hash only.
 */
export async function readWithin<P>(pictures: readonly P[], o: {
  key: (p: P) => Promise<string>; read: (p: P) => Promise<string>; known: Map<string, string>; budgetMs: number; now: () => number;
}): Promise<Array<PictureRead | null>> {
  const started = o.now();
  const out: Array<PictureRead | null> = [];
  for (const p of pictures) {
    const key = await o.key(p);
    const before = o.known.get(key);
    if (before !== undefined) {
      out.push({ text: before, reused: true });
    } else if (o.now() - started > o.budgetMs) {
      out.push(null);
    } else {
      const text = await o.read(p);
      if (o.known.size >= MAX_KNOWN) o.known.clear();
      o.known.set(key, text);
      out.push({ text, reused: false });
    }
  }
  return out;
}
