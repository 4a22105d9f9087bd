/**
 * How the scripted demo model plays the demo bookshop in a dialect that gets only a screenshot
 * (glm-pc, glm-mobile, cogagent, midscene, ui-tars): it reads the words on the screenshot on this
 * machine (Tesseract, the engine the extension itself ships, in node) and decides from the page as
 * it is now, never from where things were known to be:
 * - a book page that shows the format asked for: answer the big price;
 * - a book page in another format: open the Format list (between the "Format" label and the
 *   price), then click the format asked for when the list shows it;
 * - a results page: click the book's title (not a "Sponsored:" one), scrolling down when it is not
 *   wholly on the screen;
 * - a page with the search box: type the title (placeholder shown), then press Enter (the title is
 *   in the box, on the line of the Search button).
 * What it decides is a DemoMove, written in the dialect's grammar by demo-speakers.ts.
 */
import path from 'node:path';
import { createWorker, type Worker } from 'tesseract.js';
import jpeg from 'jpeg-js';
import { decodePng, encodePng, imageSize, type Rgba } from './png';

/** A word read on the screenshot: its text and its box in image pixels. */
export interface Word { text: string; x: number; y: number; width: number; height: number }

export interface Screen { words: Word[]; width: number; height: number }

export type DemoMove =
  | { kind: 'click'; at: { x: number; y: number }; thought: string; field?: boolean }
  | { kind: 'type'; at: { x: number; y: number }; text: string; thought: string }
  | { kind: 'enter'; thought: string }
  | { kind: 'scroll'; thought: string }
  | { kind: 'answer'; text: string }
  | { kind: 'give-up'; thought: string };

export interface DemoTask { title: string; format: 'Paperback' | 'Hardcover' | 'E-book' }

let worker: Promise<Worker> | null = null;

function ocr(): Promise<Worker> {
  worker ??= createWorker('eng', 1 /* LSTM only */, {
    langPath: path.join(import.meta.dirname, '..', 'node_modules', '@tesseract.js-data', 'eng', '4.0.0_best_int'),
    gzip: true,
    cacheMethod: 'none',
    logger: () => undefined,
  });
  return worker;
}

/** Stops the reading engine (the demo model's server closing). */
export async function stopLooking(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await (await w).terminate();
}

/** Screenshots narrower than this (a phone's, sent at its CSS size) are enlarged before reading: Tesseract misreads 10 px text. */
const READABLE_WIDTH = 1000;

/** `img` enlarged `k` times (bilinear), as a PNG. */
function enlarged(img: Rgba, k: number): Buffer {
  const w = img.width * k;
  const h = img.height * k;
  const out = new Uint8Array(w * h * 4);
  const src = img.pixels;
  for (let y = 0; y < h; y++) {
    const fy = Math.min(img.height - 1, Math.max(0, (y + 0.5) / k - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(img.height - 1, y0 + 1);
    const dy = fy - y0;
    for (let x = 0; x < w; x++) {
      const fx = Math.min(img.width - 1, Math.max(0, (x + 0.5) / k - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(img.width - 1, x0 + 1);
      const dx = fx - x0;
      const o = (y * w + x) * 4;
      for (let c = 0; c < 4; c++) {
        const a = src[(y0 * img.width + x0) * 4 + c] * (1 - dx) + src[(y0 * img.width + x1) * 4 + c] * dx;
        const b = src[(y1 * img.width + x0) * 4 + c] * (1 - dx) + src[(y1 * img.width + x1) * 4 + c] * dx;
        out[o + c] = Math.round(a * (1 - dy) + b * dy);
      }
    }
  }
  return encodePng({ width: w, height: h, pixels: out });
}

function decoded(bytes: Buffer, format: 'png' | 'jpeg'): Rgba {
  if (format === 'png') return decodePng(bytes);
  const j = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
  return { width: j.width, height: j.height, pixels: j.data };
}

/** The words on a screenshot (a data URL), with their boxes in its pixels. */
export async function look(dataUrl: string): Promise<Screen> {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  const size = imageSize(bytes);
  if (!size) throw new Error('the screenshot is neither a PNG nor a JPEG');
  const k = size.width < READABLE_WIDTH ? Math.ceil(READABLE_WIDTH / size.width) : 1;
  const r = await (await ocr()).recognize(k > 1 ? enlarged(decoded(bytes, size.format), k) : bytes, {}, { blocks: true });
  const words = (r.data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)))
    .filter((w) => w.text.trim() !== '')
    .map((w) => ({ text: w.text, x: w.bbox.x0 / k, y: w.bbox.y0 / k, width: (w.bbox.x1 - w.bbox.x0) / k, height: (w.bbox.y1 - w.bbox.y0) / k }));
  return { words, width: size.width, height: size.height };
}

/** A word as compared: lower case, letters and digits only, and I/l (one glyph in sans-serif fonts) as l. */
const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '').replace(/i/g, 'l');

function close(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.min(a.length, b.length) < 5 || Math.abs(a.length - b.length) > 1) return false;
  // one letter read wrong, left out or added
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(i + 1) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i) || a.slice(i) === b.slice(i + 1);
}

const sameLine = (a: Word, b: Word) => Math.abs((a.y + a.height / 2) - (b.y + b.height / 2)) < Math.max(a.height, b.height) * 0.6;

/** The box of a phrase read as consecutive words on one line (punctuation and case aside), or null. */
export function find(s: Screen, phrase: string, from = 0): (Word & { index: number }) | null {
  const want = phrase.split(/\s+/).map(norm).filter(Boolean);
  const words = s.words;
  for (let i = from; i + want.length <= words.length; i++) {
    let ok = true;
    for (let k = 0; k < want.length && ok; k++) {
      const w = words[i + k];
      ok = close(norm(w.text), want[k]) && (k === 0 || sameLine(words[i], w));
    }
    if (!ok) continue;
    const part = words.slice(i, i + want.length);
    const x = Math.min(...part.map((w) => w.x));
    const y = Math.min(...part.map((w) => w.y));
    const right = Math.max(...part.map((w) => w.x + w.width));
    const bottom = Math.max(...part.map((w) => w.y + w.height));
    return { text: phrase, x, y, width: right - x, height: bottom - y, index: i };
  }
  return null;
}

/** Every place the phrase is read. */
function findAll(s: Screen, phrase: string): Array<Word & { index: number }> {
  const out: Array<Word & { index: number }> = [];
  for (let hit = find(s, phrase); hit; hit = find(s, phrase, hit.index + 1)) out.push(hit);
  return out;
}

const centre = (w: Word) => ({ x: Math.round(w.x + w.width / 2), y: Math.round(w.y + w.height / 2) });
const lineOf = (s: Screen, w: Word) => s.words.filter((o) => sameLine(o, w));

const FORMATS: DemoTask['format'][] = ['Paperback', 'Hardcover', 'E-book'];

/**
 * The next move on the page the screenshot shows. `said`: the text of the request (the history
 * holds the thoughts of earlier moves: a click that put the cursor in the search box says so).
 */
export function nextMove(task: DemoTask, s: Screen, said: string): DemoMove {
  const label = find(s, 'Format');
  const add = find(s, 'to cart');
  if (label || add) {
    // a book page: the format shown is the one on the cart button, else the Format list's value
    const onAdd = (w: Word) => !!add && sameLine(w, add);
    const byAdd = add ? FORMATS.find((f) => lineOf(s, add).some((w) => close(norm(w.text), norm(f)))) : undefined;
    const listed = FORMATS.flatMap((f) => findAll(s, f).map((w) => ({ format: f, word: w })))
      .filter(({ word }) => !onAdd(word) && (!label || (!sameLine(word, label) && word.y > label.y)));
    // nothing readable says the format: the one this model chose last, if it did (it remembers its own steps)
    const chose = FORMATS.filter((f) => said.includes(choosing(f))).sort((a, b) => said.lastIndexOf(choosing(b)) - said.lastIndexOf(choosing(a)))[0];
    const shown = byAdd ?? (listed.length === 1 ? listed[0].format : listed.length === 0 ? chose : undefined);
    if (listed.length <= 1 && shown === task.format) {
      // the big price: the tallest amount on the page
      const amounts = s.words.filter((w) => /\d+[.,]\d\d/.test(w.text)).sort((a, b) => b.height - a.height);
      const price = amounts[0] && /\d+[.,]\d\d/.exec(amounts[0].text)![0].replace(',', '.');
      if (!price) return { kind: 'give-up', thought: 'I can see the book but not its price.' };
      return { kind: 'answer', text: `$${price}` };
    }
    // the list is open (its options are shown): choose the format asked for
    const option = listed.length > 1 ? listed.find((l) => l.format === task.format) : undefined;
    if (option) return { kind: 'click', at: centre(option.word), thought: choosing(task.format) };
    if (listed.length === 1) return { kind: 'click', at: centre(listed[0].word), thought: `The price depends on the format; I open the Format list to choose ${task.format}.` };
    if (!label) return { kind: 'give-up', thought: 'I cannot find the Format list on this page.' };
    const below = s.words.filter((w) => w.y > label.y + label.height + 4).sort((a, b) => a.y - b.y)[0];
    const gap = below ? below.y - (label.y + label.height) : label.height * 4;
    return {
      kind: 'click',
      at: { x: Math.round(label.x + label.width * 2.5), y: Math.round(label.y + label.height + gap * 0.4) },
      thought: `The price depends on the format; I open the Format list under its label to choose ${task.format}.`,
    };
  }
  const heading = find(s, 'Results for');
  if (heading) {
    // the title as a result: not in the heading ("Results for "clean code""), not a sponsored one
    const hit = findAll(s, task.title).find((t) => !sameLine(t, heading) && !lineOf(s, t).some((w) => /sponsored/i.test(w.text)));
    if (hit && hit.y + hit.height < s.height - 4) return { kind: 'click', at: centre(hit), thought: `The results list "${task.title}"; I open its page.` };
    const scrolls = (said.match(/I scroll down to look for the book/g) ?? []).length;
    if (scrolls >= 6) return { kind: 'give-up', thought: `I could not find "${task.title}" in the results.` };
    return { kind: 'scroll', thought: 'I scroll down to look for the book in the results.' };
  }
  const button = findAll(s, 'Search').find((w) => !find({ ...s, words: lineOf(s, w) }, 'Search books'));
  const typed = button && findAll(s, task.title).some((t) => sameLine(t, button) && t.x < button.x);
  if (typed) return { kind: 'enter', thought: 'The title is in the search box; I press Enter to search.' };
  const box = find(s, 'Search books by title or author') ?? find(s, 'Search books');
  if (box) {
    const thought = said.includes(CURSOR_IN_BOX) ? `I type "${task.title}" into the search box.` : `The shop has a search box; I search for "${task.title}".`;
    return { kind: 'type', at: centre(box), text: task.title, thought };
  }
  return { kind: 'give-up', thought: 'I cannot find the demo bookshop\'s search box, results or book page on this screen.' };
}

/** What choosing a format in the open list says (the history remembers it). */
const choosing = (format: string) => `The list shows the formats; I choose ${format}.`;

/** What a click into the search box says (a dialect that must click before it types looks for it in the history). */
export const CURSOR_IN_BOX = 'I click into the search box first.';
