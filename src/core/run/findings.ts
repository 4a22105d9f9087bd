/**
 * Words aimed at the agent in what the model reads besides the element list and the title
 * (core/injection/index.ts finds them; reduce.ts makes the next action wait for the person): the text
 * the page shows (the frames' page text screens, content-scripts/labeler/screen-text.ts), the
 * page's address, the site notes given with the elements on screen, and the names of attached
 * files. Pure.
 */
import { detectInjection, type InjectionHit } from '../injection';
import type { FileMeta } from '../files';
import type { Observation } from './state';

/** An address read as words: its decoded path and query, separators as spaces ("/ignore-all-previous-instructions"). */
function addressWords(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '';
  }
  let text = `${u.pathname} ${u.search} ${u.hash}`;
  try {
    text = decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    // a malformed escape: read it as it is
  }
  return text.replace(/[/\\\-_+=&?#.~]+/g, ' ');
}

/**
 * The findings of one observation outside the element list and the title. `listed` are the hits
 * of the element list: a page text finding that says the same as a listed control (the screen
 * reads controls' blocks too) is not counted twice.
 */
export function findingsOf(o: Pick<Observation, 'url' | 'findings' | 'docs' | 'marks'>, listed: InjectionHit[]): InjectionHit[] {
  const out: InjectionHit[] = [];
  const listedText = listed.filter((h) => typeof h.where === 'number').map((h) => o.marks[h.where as number]?.text ?? '');
  for (const f of o.findings ?? []) {
    const excerpt = f.excerpt.replace(/\s+/g, ' ').trim();
    if (listedText.some((t) => t.replace(/\s+/g, ' ').includes(excerpt))) continue;
    out.push({ phrase: f.phrase, kind: f.kind, where: { channel: f.channel, tag: f.tag, excerpt, ...(f.frame ? { frame: f.frame } : {}) } });
  }
  const url = detectInjection([{ text: addressWords(o.url), where: 0 }])[0];
  if (url) out.push({ ...url, where: { channel: 'url' } });
  for (const d of o.docs ?? []) {
    const hit = detectInjection(Object.values(d.docs).map((text) => ({ text: text ?? '', where: 0 })))[0];
    if (hit) out.push({ ...hit, where: { channel: 'notes', label: d.label } });
  }
  return out;
}

/** Attached files whose names speak to the agent (the model is told the names). */
export function fileFindings(files: readonly Pick<FileMeta, 'name'>[]): InjectionHit[] {
  return files.flatMap((f) => {
    const hit = detectInjection([{ text: f.name.replace(/[_\-.]+/g, ' '), where: 0 }])[0];
    return hit ? [{ ...hit, where: { channel: 'file' as const, name: f.name } }] : [];
  });
}
