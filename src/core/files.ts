/**
 * Files the person attaches to a run, for the page's file inputs (act/files.ts sets them when an
 * action opens a file chooser). Pure: the size cap, and which attached files a file input takes
 * (its `accept` list, one file or several). What the model is told about it: run/model-text.ts.
 */
import type { Translate } from './i18n';
import { english } from './locales';

/** What is kept and shown about an attached file (never its bytes: those stay in the file store). */
export interface FileMeta { name: string; type: string; size: number }

/** All the files attached to one run may add up to this many bytes. */
export const MAX_FILES_BYTES = 20 * 1024 * 1024;

/** "1.5 MB", "820 KB", "12 B". */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}

/** Why a file cannot be added to those already attached (for the person), or null when it can. */
export function whyNotAttach(have: FileMeta[], add: FileMeta, cap = MAX_FILES_BYTES, t: Translate = english): string | null {
  const used = have.reduce((n, f) => n + f.size, 0);
  if (used + add.size <= cap) return null;
  return t(have.length === 1 ? 'fileTooBig' : 'fileTooBigMany', add.name, formatBytes(add.size), formatBytes(cap), formatBytes(used));
}

/**
 * Whether a file input's `accept` list takes the file: `.pdf` (extension), `image/*` (a MIME
 * group), `text/plain` (a MIME type); an empty list takes everything
 * (https://html.spec.whatwg.org/multipage/input.html#attr-input-accept).
 */
export function accepts(accept: string, f: Pick<FileMeta, 'name' | 'type'>): boolean {
  const items = accept.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (!items.length) return true;
  const name = f.name.toLowerCase();
  const type = f.type.toLowerCase();
  return items.some((a) => {
    if (a.startsWith('.')) return name.endsWith(a);
    if (a.endsWith('/*')) return type.startsWith(a.slice(0, -1));
    return type === a;
  });
}

export interface FilePick<F extends FileMeta> {
  chosen: F[];
  /** attached, but of a type the input does not accept */
  refused: F[];
  /** accepted, but the input takes one file and another was chosen */
  left: F[];
}

/**
 * Which attached files a file input gets: those it accepts; only the first for an input without
 * `multiple`. `prefer`: text naming files (a Type action's text): when it names some of them,
 * only those are considered.
 */
export function pickFiles<F extends FileMeta>(files: F[], accept: string, multiple: boolean, prefer = ''): FilePick<F> {
  const want = prefer.trim().toLowerCase();
  const named = want ? files.filter((f) => want.includes(f.name.toLowerCase()) || f.name.toLowerCase().includes(want)) : [];
  const pool = named.length ? named : files;
  const ok = pool.filter((f) => accepts(accept, f));
  const refused = pool.filter((f) => !accepts(accept, f));
  const chosen = multiple ? ok : ok.slice(0, 1);
  return { chosen, refused, left: ok.slice(chosen.length) };
}
