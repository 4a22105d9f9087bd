/**
 * Learned documentation kept per site and found again on the page by the element's fingerprint
 * (tag, text, structural path: core/marks.ts), never by its label number, which changes with every
 * labelling pass. Pure. docs/learned-docs.md explains the matching for people.
 *
 * Like replay's findTarget (core/trace/replay.ts) a different tag is never the same element, and another
 * text in the same place is another element. Unlike replay, many entries are matched to many marks
 * at once, so each pair gets a score and the best pairs are taken first, one to one:
 * 1. same tag, same path, same text (score above every other);
 * 2. same tag and similar text (numbers ignored, small edits allowed: "Add to basket" and
 *    "Add to basket (2)"), wherever it is now (a moved element);
 * 3. same tag and same path, with text at least half alike (a relabelled or reworded control).
 * A pair that is none of these is not a match: a control in a similar place with unrelated text is
 * another control. Elements without text (icons, empty fields) match only in the same place.
 */
import type { Fingerprint, Mark } from '../marks';
import { detectInjection } from '../injection';
import { hideIn } from '../secrets';
import { english } from '../locales';
import type { Translate } from '../i18n';
import { PASSWORD_MASK } from '../run/state';
import { DOC_ACTIONS, DOC_USE_KEYS, type DocAction, type DocEntry, type ScreenDoc } from './types';
import { noteRuleHit, type NoteRuleKind } from './note-rules';

/** Text at least this alike (0–1) matches anywhere on the page. */
export const TEXT_ALIKE = 0.75;
/** Text at least this alike matches in the same place (same path). */
export const TEXT_ALIKE_SAME_PLACE = 0.5;
/** Only this much of a text is compared (a long paragraph's start says which it is). */
const COMPARED_CHARS = 120;
/** A documentation text is cut here (the model's words about one control, not an essay). */
export const MAX_DOC_CHARS = 2000;

/** Text as compared: case, punctuation and spacing folded, every number one "#" ("Cart (3)" ~ "Cart (12)"). */
export function normalizeDocText(s: string): string {
  return s.normalize('NFKC').toLowerCase()
    .replace(/\d+(?:[.,]\d+)*/g, '#')
    .replace(/[^\p{L}\p{N}#]+/gu, ' ')
    .trim()
    .slice(0, COMPARED_CHARS);
}

/** Levenshtein distance, giving up (returning limit + 1) once it must exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** How alike two normalised texts are, 0–1 (1: equal); below `floor` the answer is just 0. */
export function textAlike(a: string, b: string, floor = 0): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  if (!a || !b) return 0;
  const limit = Math.floor((1 - floor) * longest);
  const d = editDistance(a, b, limit);
  return d > limit ? 0 : 1 - d / longest;
}

/** How much of two paths' start is shared, by steps (0–1): a tie-breaker between equal texts. */
function pathAlike(a: string, b: string): number {
  if (!a || !b) return 0;
  const x = a.split('>');
  const y = b.split('>');
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n / Math.max(x.length, y.length);
}

/** The fingerprint a mark is matched by (its own, else its tag and text with no path). */
function fingerprintOf(m: Mark): Fingerprint {
  return m.fingerprint ?? { tag: m.tag, text: m.text, path: '' };
}

/**
 * How well a documented element fits an element on the page now: a score (higher is better), or
 * null when it is not the same element (rules in the header).
 */
export function fitScore(doc: Fingerprint, now: Fingerprint): number | null {
  if (doc.tag !== now.tag) return null;
  const samePlace = !!doc.path && doc.path === now.path;
  if (samePlace && doc.text === now.text) return 3;
  const a = normalizeDocText(doc.text);
  const b = normalizeDocText(now.text);
  const place = pathAlike(doc.path, now.path);
  if (!a && !b) return samePlace ? 2 : null;
  const alike = textAlike(a, b, samePlace ? TEXT_ALIKE_SAME_PLACE : TEXT_ALIKE);
  if (samePlace ? alike < TEXT_ALIKE_SAME_PLACE : alike < TEXT_ALIKE) return null;
  return alike + (samePlace ? 0.5 : 0) + 0.1 * place;
}

/** Entries with something to say (at least one action's text). */
function hasDocs(e: DocEntry): boolean {
  return DOC_ACTIONS.some((a) => !!e.docs[a]?.trim());
}

/**
 * The documentation of the elements on screen: each entry given to at most one mark and each mark
 * at most one entry, the best-fitting pairs first (ties: the earlier mark, the newer entry).
 * An entry that fails screening today (screenEntry: one stored before a rule was added, say) is
 * never given: it is passed over as if it were not there, so the model never reads it.
 */
export function matchDocs(entries: DocEntry[], marks: Mark[]): ScreenDoc[] {
  const pairs: Array<{ e: number; m: number; score: number }> = [];
  const fps = marks.map(fingerprintOf);
  entries.forEach((entry, e) => {
    if (!hasDocs(entry)) return;
    fps.forEach((fp, m) => {
      const score = fitScore(entry.fingerprint, fp);
      if (score !== null) pairs.push({ e, m, score });
    });
  });
  pairs.sort((x, y) => y.score - x.score || x.m - y.m || entries[y.e].updatedAt - entries[x.e].updatedAt);
  const usedE = new Set<number>();
  const usedM = new Set<number>();
  const passes = new Map<number, boolean>(); // screened only when about to be given
  const out: ScreenDoc[] = [];
  for (const p of pairs) {
    if (usedE.has(p.e) || usedM.has(p.m)) continue;
    if (!passes.has(p.e)) passes.set(p.e, screenEntry(entries[p.e]) === null);
    if (!passes.get(p.e)) {
      usedE.add(p.e);
      continue;
    }
    usedE.add(p.e);
    usedM.add(p.m);
    out.push({ label: marks[p.m].label, docs: { ...entries[p.e].docs } });
  }
  return out.sort((a, b) => a.label - b.label);
}

/** The site's entry for an element (the best fit for its fingerprint), or null. */
export function findEntry(entries: DocEntry[], origin: string, fingerprint: Fingerprint): DocEntry | null {
  let best: { entry: DocEntry; score: number } | null = null;
  for (const entry of entries) {
    if (entry.origin !== origin) continue;
    const score = fitScore(entry.fingerprint, fingerprint);
    if (score !== null && (!best || score > best.score)) best = { entry, score };
  }
  return best?.entry ?? null;
}

/** A new entry's id: time and chance, unique enough for one person's store and a team's files. */
export function newDocId(now: number, random: () => number = Math.random): string {
  return `${now.toString(36)}-${Math.floor(random() * 36 ** 8).toString(36).padStart(8, '0')}`;
}

/**
 * The entries with one action's documentation of an element written: its entry (found by
 * fingerprint) gets that action's text replaced (a refinement: the caller asked the model with the
 * old text) and the element's fingerprint as it is now, so the entry follows the page's changes;
 * with no entry a new one is added.
 */
export function upsertEntry(
  entries: DocEntry[], origin: string, fingerprint: Fingerprint, action: DocAction, text: string,
  source: DocEntry['source'], now: number,
): { entries: DocEntry[]; entry: DocEntry } {
  const old = findEntry(entries, origin, fingerprint);
  const docs = { ...(old?.docs ?? {}), [action]: text.trim().slice(0, MAX_DOC_CHARS) };
  const entry: DocEntry = {
    id: old?.id ?? newDocId(now), origin, fingerprint: { ...fingerprint }, docs, source, updatedAt: now,
    ...(old?.importedFrom ? { importedFrom: old.importedFrom } : {}),
  };
  return { entries: old ? entries.map((e) => (e === old ? entry : e)) : [...entries, entry], entry };
}

/** Each note rule's name for the person (note-rules.ts). */
const RULE_NAMES: Record<NoteRuleKind, string> = {
  confirm: 'docRuleConfirm',
  secret: 'docRuleSecret',
  elsewhere: 'docRuleElsewhere',
  action: 'docRuleAction',
  authority: 'docRuleAuthority',
};

/**
 * Why an entry must not be stored, imported or given to the model, or null: learned notes reach the
 * model in later runs, so page instructions in them ("ignore previous instructions…") would be
 * carried into those runs. The element's text and each action's text are checked for injections
 * (core/injection/index.ts); then each action's text must only describe what the element does: a text
 * that tells the agent how to behave (whether to ask or confirm, secrets, other sites, which action,
 * orders and urgency) is refused (note-rules.ts). The element's text is the page's own label, which
 * the model reads on the page anyway, so only the injection checks apply to it.
 */
export function screenEntry(entry: DocEntry, t: Translate = english): string | null {
  return entryProblem(entry, t)?.reason ?? null;
}

/**
 * screenEntry's finding with the part it is about (the element's text, or one use's text), so that
 * the editor can show it next to that field. A use is named by its field's label ("Click").
 */
export function entryProblem(entry: DocEntry, t: Translate = english): { where: 'element' | DocAction; reason: string } | null {
  const texts = [
    { text: entry.fingerprint.text, where: 'element' },
    ...DOC_ACTIONS.map((a) => ({ text: entry.docs[a] ?? '', where: a })),
  ];
  const hit = detectInjection(texts)[0];
  if (hit) {
    const where = hit.where as 'element' | DocAction;
    return where === 'element'
      ? { where, reason: t('docRefusedElement', hit.phrase) }
      : { where, reason: t('docRefusedText', t(DOC_USE_KEYS[where]), hit.phrase) };
  }
  for (const a of DOC_ACTIONS) {
    const rule = noteRuleHit(entry.docs[a] ?? '', entry.origin);
    if (rule) return { where: a, reason: t('docRefusedRule', t(DOC_USE_KEYS[a]), t(RULE_NAMES[rule.kind]), rule.phrase) };
  }
  return null;
}

/**
 * The entry with every given secret (passwords typed during a demonstration, the person's secrets)
 * replaced by the password mask, in the element's text and every action's text. Values shorter than
 * MIN_SECRET_CHARS are left (core/secrets/index.ts says why).
 */
export function maskEntry(entry: DocEntry, secrets: string[]): DocEntry {
  const fingerprint = hideIn(entry.fingerprint, { typed: secrets, kept: [] }, PASSWORD_MASK);
  const docs = hideIn(entry.docs, { typed: secrets, kept: [] }, PASSWORD_MASK);
  return { ...entry, fingerprint, docs };
}

/** The site documentation is kept under: the page's origin ("https://shop.example"), null for non-web pages. */
export function docOrigin(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}
