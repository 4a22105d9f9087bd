/**
 * The injection detector's own readings of a text (injection/index.ts), on top of fold-text.ts, which the
 * guards share and which is left as it is:
 *
 * - foldInjection: the general combining marks dropped, wherever they sit (accents of Latin,
 *   Cyrillic and Greek letters, and "zalgo" stacks: "i̷̢g̵n̶o̸r̴e" is "ignore"; Japanese dakuten,
 *   Devanagari or Thai marks stay, Korean has none), then foldText (NFKC, invisible characters,
 *   case, Cyrillic/Greek look-alikes as Latin, quotes, spaces), then Traditional Chinese as
 *   Simplified (han-simplified.ts and the detector's own words below).
 * - foldCyrillic: the same without reading Cyrillic as Latin, for Russian: a word written in
 *   Cyrillic stays Cyrillic, and Latin look-alike letters inside a Cyrillic word are read as
 *   Cyrillic ("игнoрируй" with a Latin o is "игнорируй").
 * - unleet: a second reading where words that mix letters with digits, "@" or "$" are read as
 *   letters (0 o, 1 i or l, 3 e, 4 a, 5 s, 7 t, @ a, $ s): "1gn0r3 pr3v10us" is "ignore
 *   previous". Words without a letter (prices, years) and words without a digit are untouched.
 * - rejoin: a third reading where a word cut into pieces by spaces, dots or dashes is put back
 *   together when the pieces make one of the detector's words ("ig nore", "i.g.n.o.r.e").
 *
 * foldSource gives a pattern's source the same reading, so patterns are written in plain spelling
 * ("précédentes", "無視") and still match the folded text ("precedentes", "无视").
 */

import { dropInvisible, foldText } from '../fold-text';
import { toSimplified } from '../han-simplified';

const NON_ASCII = /[\u0080-\uffff]/;
/**
 * The combining marks of the general-purpose blocks (diacritical marks and their supplements, marks
 * for symbols, half marks): the accents of Latin, Cyrillic and Greek letters and the stuff of
 * "zalgo" text. Script-specific marks (Japanese dakuten, Devanagari, Thai, Hebrew, Arabic) are
 * outside them and stay; Korean has none (its syllables decompose into letters).
 */
// eslint-disable-next-line no-misleading-character-class -- a class of combining marks, on purpose
const COMBINING = /[\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+/g;
/** Letters that decompose into a letter and such marks (Latin, Greek, Cyrillic й, ё, ї, ў…). */
const PRECOMPOSED = /[\u00c0-\u024f\u0386-\u03ce\u1e00-\u1fff\u0400\u0401\u0403\u0407\u040c-\u040e\u0419\u0439\u0450\u0451\u0453\u0457\u045c-\u045e\u0476\u0477\u04c1\u04c2\u04d0-\u04ff]/;
// eslint-disable-next-line no-misleading-character-class -- a class of combining marks, on purpose
const HAS_COMBINING = /[\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/;
const HAN = /[\u3400-\u9fff\uf900-\ufaff]/;
const CYRILLIC = /[\u0400-\u04ff]/;

/**
 * Traditional characters of the detector's words that han-simplified.ts (the guards' table) does
 * not hold, each written Traditional then Simplified.
 */
const MORE_HAN = [
  '無无 視视 規规 則则 詞词 約约 務务 機机 語语 從从 須须 訴诉 統统 顯显 洩泄 標标 擊击 該该 體体 們们',
  '對对 將将 讓让 別别 後后 於于 覽览 瀏浏 網网 頁页 僅仅 蓋盖 幫帮 當当 並并 產产 內内 與与 說说 權权',
  '實实 隱隐 級级 圖图 鍵键 這这 題题 問问 詢询 還还 進进 獄狱 處处 給给 寫写 範范 諸诸 類类 稱称 驟骤',
  '執执 啟启 變变 來来 見见 試试 檔档 鐘钟 門门 辦办 邊边 業业 區区 條条 議议 聽听 話话 隨随 書书 專专',
  '屬属 層层 師师 裝装 絡络 頂顶 攔拦 廣广 線线 雲云 憑凭 麗丽 義义 圍围 輪轮 劃划 釋释 鬆松',
].join(' ').split(' ');
const HAN_MORE = new Map(MORE_HAN.map((p) => {
  const [t, s] = Array.from(p);
  return [t, s] as const;
}));

const HAN_CHAR = /[\u3400-\u9fff\uf900-\ufaff]/g;
const hanCache = new Map<string, string>();
/** A Han character as Simplified (han-simplified.ts, then MORE_HAN). */
function simplified(c: string): string {
  let s = hanCache.get(c);
  if (s === undefined) {
    s = toSimplified(c);
    s = HAN_MORE.get(s) ?? s;
    hanCache.set(c, s);
  }
  return s;
}

function foldHan(s: string): string {
  return s.replace(HAN_CHAR, simplified);
}

let lastMarked = '';
let lastDropped = '';
/** The text without its general combining marks (the last answer is kept: both readings of a text ask). */
function dropMarks(s: string): string {
  if (s === lastMarked) return lastDropped;
  let t = s;
  if (PRECOMPOSED.test(s)) t = s.normalize('NFKD').replace(COMBINING, '');
  else if (HAS_COMBINING.test(s)) t = s.replace(COMBINING, '');
  lastMarked = s;
  lastDropped = t;
  return t;
}

/** Text as the detector's patterns read it (see the file's comment). */
export function foldInjection(s: string): string {
  let t = foldText(NON_ASCII.test(s) ? dropMarks(s) : s);
  if (HAN.test(t)) t = foldHan(t);
  return t;
}

/** Latin letters that pass for Cyrillic ones, read as those inside a Cyrillic word. */
const TO_CYRILLIC: Record<string, string> = { a: 'а', b: 'в', c: 'с', e: 'е', h: 'н', k: 'к', m: 'м', o: 'о', p: 'р', t: 'т', x: 'х', y: 'у' };
const LATIN_LOOKALIKE = /[abcehkmoptxy]/g;
const WORD = /[\p{L}\p{N}]+/gu;
/** A Latin look-alike letter next to a Cyrillic one. */
const MIXED = /[\u0400-\u04ff][abcehkmoptxy]|[abcehkmoptxy][\u0400-\u04ff]/;

/** The text holds Cyrillic letters (foldCyrillic is worth reading). */
export function hasCyrillic(s: string): boolean {
  return CYRILLIC.test(s);
}

/** Text as the Russian patterns read it: like foldInjection, Cyrillic kept (see the file's comment). */
export function foldCyrillic(s: string): string {
  const t = dropInvisible(dropMarks(s).normalize('NFKC')).toLowerCase()
    .replace(/[‘’‚‛]/g, '\'').replace(/[“”„‟]/g, '"').replace(/\s+/g, ' ').trim();
  if (!MIXED.test(t)) return t;
  return t.replace(WORD, (w) => (CYRILLIC.test(w) && /[a-z]/.test(w) ? w.replace(LATIN_LOOKALIKE, (c) => TO_CYRILLIC[c]) : w));
}

/** Characters of a pattern's source as the text's fold gives them (a regex syntax character escaped). */
export function foldSource(source: string, cyrillic = false): string {
  return source.replace(/[\u0080-\uffff]/g, (c) => {
    const f = cyrillic ? foldCyrillic(c) : foldInjection(c);
    if (f === '-') throw new Error(`foldSource: '${c}' folds to '-'`);
    return f.replace(/[\^$\\.*+?()[\]{}|/]/g, '\\$&');
  });
}

/**
 * The words a leetspeak or cut-up attack is read back into (folded): enough for the phrases of every
 * language's patterns to be whole again.
 */
const LEXICON_WORDS = [
  // English
  'ignore', 'ignoring', 'disregard', 'forget', 'override', 'bypass', 'previous', 'prior', 'above', 'earlier', 'preceding',
  'original', 'initial', 'system', 'instruction', 'instructions', 'prompt', 'prompts', 'rules', 'directions', 'guidelines',
  'commands', 'all', 'any', 'every', 'the', 'your', 'you', 'are', 'now', 'assistant', 'assistants', 'agent', 'agents',
  'model', 'language', 'autonomous', 'attention', 'note', 'dear', 'must', 'should', 'next', 'action', 'answer', 'respond',
  'reply', 'only', 'tell', 'user', 'human', 'secret', 'hidden', 'reveal', 'new', 'updated', 'from', 'developer', 'mode',
  'jailbreak', 'unrestricted', 'chatgpt', 'claude', 'gemini', 'llm', 'llms', 'click', 'navigate', 'immediately',
  // German, French, Spanish, Italian, Portuguese, Polish, Turkish
  'ignoriere', 'vergiss', 'alle', 'vorherigen', 'bisherigen', 'anweisungen', 'ignorez', 'ignore', 'oubliez', 'toutes',
  'les', 'precedentes', 'consignes', 'ignora', 'olvida', 'todas', 'las', 'instrucciones', 'anteriores', 'tutte', 'le',
  'istruzioni', 'precedenti', 'dimentica', 'instrucoes', 'esqueca', 'desconsidere', 'zignoruj', 'ignoruj', 'wszystkie',
  'poprzednie', 'instrukcje', 'polecenia', 'zapomnij', 'onceki', 'tum', 'talimatlari', 'yok', 'say', 'unut',
].map((w) => foldInjection(w));
const LEXICON = new Set(LEXICON_WORDS);
const PREFIXES = new Set(LEXICON_WORDS.flatMap((w) => Array.from({ length: w.length - 1 }, (_, i) => w.slice(0, i + 1))));

const LEET: Record<string, string> = { 0: 'o', 3: 'e', 4: 'a', 5: 's', 7: 't', '@': 'a', $: 's' };
/** A word of three characters or more that mixes letters with digits, "@" or "$". */
const LEET_WORD = /(?<![a-z0-9@$])(?=[a-z0-9@$]{3})[a-z0-9@$]*(?:[a-z][0-9@$]|[0-9@$][a-z])[a-z0-9@$]*/g;
const HAS_LEET = /[a-z][0-9@$]|[0-9@$][a-z]/;

/**
 * The text with its leetspeak words read as letters, or null when no such word reads as one of the
 * detector's words ("h4x0r", "A1B2-C3D4" and "mp3" are left as they are) (see the file's comment).
 */
export function unleet(t: string): string | null {
  if (!HAS_LEET.test(t)) return null;
  let found = false;
  const out = t.replace(LEET_WORD, (w) => {
    const base = w.replace(/[03457@$]/g, (c) => LEET[c] ?? c);
    const asI = base.replace(/1/g, 'i');
    const asL = base.replace(/1/g, 'l');
    const word = LEXICON.has(asI) ? asI : LEXICON.has(asL) ? asL : null;
    if (word === null) return w;
    found = true;
    return word;
  });
  return found ? out : null;
}

/** Dots, dashes and the like between two letters: "i.g.n.o.r.e". */
const CUT = /([a-z])[.\-_·*/|](?=[a-z])/g;
const CUT_ANY = /[a-z][.\-_·*/|][a-z]/;
const LETTERS = /^[a-z]+/;
/** Three letters standing alone in a row: "i g n o r e". */
const SINGLE_LETTERS = /\b[a-z] [a-z] [a-z]\b/;
/** Short words that also begin some of the detector's words ("in", "pre"): not taken for a cut word by themselves. */
const COMMON = new Set(['to', 'in', 'an', 'at', 'as', 'is', 'it', 'or', 'on', 'no', 'so', 'do', 'go', 'us', 'we', 'up', 'by', 'of', 'he', 'me', 'my',
  'the', 'for', 'and', 'pre', 'pro', 'con', 'com', 'de', 'la', 'le', 'les', 'el', 'lo', 'il', 'un', 'una', 'une', 'au', 'da', 'di', 'se', 'si', 'su', 'te', 'tu',
  'ti', 'co', 're', 'ne', 'ni', 'na', 'ma', 'mi', 'mo', 'po', 'za', 'od', 'ja', 'ta', 'al', 'ad', 'ab', 'am', 'im', 'ob', 'sa', 'ol', 'ay', 'ey', 'o']);
/** A word that is only the beginning of one of the detector's longer words, before another word: "ig nore", "instruc tions". */
const CUT_WORD = new RegExp(String.raw`\b(?:${[...new Set(LEXICON_WORDS.filter((w) => w.length >= 5)
  .flatMap((w) => Array.from({ length: w.length - 2 }, (_, i) => w.slice(0, i + 2))))]
  .filter((p) => !LEXICON.has(p) && !COMMON.has(p)).sort((x, y) => y.length - x.length).join('|')}) [a-z]`);

/**
 * The text with words cut into pieces put back together, or null when none was (see the file's
 * comment). Pieces are joined across single spaces while they still begin one of the detector's
 * words; the longest such word wins (the last piece may carry punctuation: "instruc tions.").
 */
export function rejoin(t: string): string | null {
  if (!CUT_ANY.test(t) && !SINGLE_LETTERS.test(t) && !CUT_WORD.test(t)) return null;
  const pieces = (CUT_ANY.test(t) ? t.replace(CUT, '$1 ') : t).split(' ');
  let out: string[] | null = null;
  for (let i = 0; i < pieces.length;) {
    let joined = pieces[i];
    let best = -1;
    let bestText = '';
    if (PREFIXES.has(joined)) {
      for (let j = i + 1; j < pieces.length && j - i <= 30; j++) {
        const next = joined + pieces[j];
        if (LEXICON.has(next)) {
          best = j;
          bestText = next;
        } else {
          const letters = LETTERS.exec(pieces[j]);
          if (letters && letters[0].length < pieces[j].length && LEXICON.has(joined + letters[0])) {
            best = j;
            bestText = next;
            break;
          }
        }
        if (!PREFIXES.has(next)) break;
        joined = next;
      }
    }
    if (best < 0) {
      out?.push(pieces[i]);
      i += 1;
    } else {
      out ??= pieces.slice(0, i);
      out.push(bestText);
      i = best + 1;
    }
  }
  return out ? out.join(' ') : null;
}
