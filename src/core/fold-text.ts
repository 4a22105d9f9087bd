/**
 * Text folded for matching, shared by the injection detector (injection/index.ts) and the guards'
 * phrases and field labels (guards/words.ts, guards/fields.ts): what a person reads as the same
 * words becomes the same string, so hidden or look-alike characters do not slip a phrase past.
 *
 * foldText: NFKC (full-width letters to ASCII, ligatures split); zero-width characters, the soft
 * hyphen and bidi controls dropped; lower case; Cyrillic and Greek letters that pass for Latin ones
 * mapped to them ("Plаce" with a Cyrillic а is "place"); curly quotes made straight; spaces
 * collapsed; spaces between Chinese or Japanese characters dropped ("忽 略" is "忽略"). With
 * `marks`, combining marks on Latin, Cyrillic and Greek letters go too, accents included ("Plácé"
 * is "place"; Japanese "ガ" keeps its dakuten).
 *
 * foldGuardText, for the guards (the page's text and the phrases alike): foldText with the marks,
 * "ß" as "ss", Traditional Chinese characters as Simplified (han-simplified.ts), and "&" or "+"
 * between two words as "and" ("Confirm & pay" is "confirm and pay"; between Chinese or Japanese
 * characters, as nothing).
 */

import { toSimplified } from './han-simplified';

/**
 * Characters that show nothing: zero-width (space, joiners, word joiner), soft hyphen, bidi controls, BOM,
 * fillers, variation selectors (those that combine with the character before stand outside the class).
 */
const INVISIBLE = /[\u00AD\u061C\u115F\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0]|\u034F|\u1160|[\u17B4\u17B5]|[\u180B-\u180D]|[\uFE00-\uFE0F]/g;

/** Look-alike letters from other scripts (after lower-casing), mapped to the Latin letter they pass for. */
const CONFUSABLES: Record<string, string> = {
  // Cyrillic
  'а': 'a', 'в': 'b', 'е': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x',
  'і': 'i', 'ј': 'j', 'ѕ': 's', 'һ': 'h', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l',
  // Greek
  'α': 'a', 'β': 'b', 'ε': 'e', 'η': 'h', 'ι': 'i', 'κ': 'k', 'μ': 'm', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x', 'ζ': 'z', 'ϲ': 'c',
  // Latin letters that pass for others
  'ɡ': 'g', 'ı': 'i',
};
const CONFUSABLE = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'g');

/** A combining mark on a Latin, Cyrillic or Greek letter (after NFD). */
const MARK_ON_LETTER = /([\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}])\p{M}+/gu;

const CJK_GAP = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]) (?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu;

/** Spaces collapsed, none between Chinese or Japanese characters, none at the ends. */
export function squeezeSpaces(s: string): string {
  return s.replace(/\s+/g, ' ').replace(CJK_GAP, '$1').trim();
}

/** Text folded for matching (see the file's comment). */
export function foldText(s: string, opts: { marks?: boolean } = {}): string {
  let t = s.normalize('NFKC').replace(INVISIBLE, '').toLowerCase();
  if (opts.marks) t = t.normalize('NFD').replace(MARK_ON_LETTER, '$1').normalize('NFC');
  t = t.replace(CONFUSABLE, (c) => CONFUSABLES[c] ?? c).replace(/[‘’‚‛]/g, '\'').replace(/[“”„‟]/g, '"');
  return squeezeSpaces(t);
}

/** `s` without the characters that show nothing (zero-width, soft hyphen, bidi controls), case and all else kept. */
export function dropInvisible(s: string): string {
  return s.replace(INVISIBLE, '');
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** "&" or "+" between two words (or digits). */
const AND = /([\p{L}\p{N}])\s*[&+]\s*(?=([\p{L}\p{N}]))/gu;

/** Text as the guards compare it (see the file's comment). */
export function foldGuardText(s: string): string {
  const t = toSimplified(foldText(s, { marks: true }).replace(/ß/g, 'ss'));
  return squeezeSpaces(t.replace(AND, (_, a: string, b: string) => `${a}${CJK.test(a) && CJK.test(b) ? '' : ' and '}`));
}
